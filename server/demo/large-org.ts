/**
 * A large organisation (`npm run server -- --seed large`, the `large-org` benchmark): at scale 1,
 * 10,000 users, 500 channels, 50,000 topics and 1,000,000 messages, from a seeded PRNG so the same
 * seed gives the same rows. The spread is Zipf-like, as in a real organisation: a few channels
 * carry most messages, topic sizes fall off steeply within a channel, a few posters write most of
 * a channel, words follow a Zipf law (so search has common and rare terms); 5% of messages are
 * direct messages between a few hundred pairs.
 *
 * The benchmark's user (`LARGE_ORG_EMAIL`, the owner) is subscribed to every channel and is in
 * one pair in five; of what it received, a set share is unread (most of it recent, and in the
 * channels it skims), some mentions it (by name, or `@**all**`), some are starred.
 *
 * Written as bulk SQL with prepared statements inside the caller's transaction: rendering each
 * message through the send path would take hours. Unlike a real Zulip server, per-user rows
 * (`user_messages`) are written for the benchmark's user and each message's sender only, not for
 * every subscriber (that would be tens of millions of rows): the other users read channels as
 * history. Timestamps are fixed (not the clock's), so the rows hash the same on every run.
 */
import { escapeHtml } from '../markdown/zulip-syntax.js';
import { FLAG } from '../model/flags.js';
import { hashPassword, ROLE } from '../model/users.js';
import { seededRandom } from '../../common/random.js';
import { topicKey } from '../../common/topic-key.js';
import type { ServerState } from '../state.js';
import { DEMO_PASSWORD } from './base.js';

export const LARGE_ORG_EMAIL = 'bench@example.com';
export const LARGE_ORG_NAME = 'Bench Owner';
const DEFAULT_SEED = 0x1a59e;
/** The history spans two years before this (UNIX seconds). */
const END = 1_760_000_000;
const SPAN = 2 * 365 * 86_400;

/** What a scale asks for (each count at least 1). */
export interface LargeOrgShape {
  readonly users: number;
  readonly channels: number;
  readonly topics: number;
  readonly messages: number;
  /** Of `messages`, direct messages, between `dmPairs` pairs. */
  readonly dms: number;
  readonly dmPairs: number;
  /** The benchmark user's unread, mentioning and starred messages. */
  readonly unread: number;
  readonly mentions: number;
  readonly starred: number;
}

export function largeOrgShape(scale = 1): LargeOrgShape {
  if (!(scale > 0 && scale <= 1)) throw new Error(`large-org scale: a number in (0, 1], not ${scale}`);
  const n = (x: number) => Math.max(1, Math.round(x * scale));
  const shape = { users: Math.max(2, n(10_000)), channels: n(500), topics: n(50_000), messages: n(1_000_000), dms: n(50_000), dmPairs: n(300), unread: n(100_000), mentions: n(2_000), starred: n(3_000) };
  return shape;
}

// --- words, names ----------------------------------------------------------------------------

const COMMON = (
  'the a to and of in is it that for on we this be with are was have not you at but can so if ' +
  'release build test review deploy server client message topic channel meeting plan today ' +
  'tomorrow question answer idea bug fix issue branch merge design doc customer team week'
).split(' ');
const FIRST = (
  'Ada Alan Alice Amara Ana Arjun Ben Bianca Carlos Chen Chloe Dana David Diego Elena Emma Farah ' +
  'Felix Grace Hana Hugo Ines Ivan Jana Jin Jonas Kai Kofi Lara Leo Lina Luca Maria Mateo Maya ' +
  'Mei Nadia Nina Noah Omar Oscar Priya Rafael Rosa Sami Sara Sofia Tariq Tom Uma Vera Wei Yara Zoe'
).split(' ');
const LAST = (
  'Abara Berg Costa Dubois Eriksen Fischer Garcia Haddad Ito Jensen Kowalski Lopez Meyer Nakamura ' +
  'Okafor Petrov Quinn Rossi Silva Tanaka Ueda Varga Weber Xu Yilmaz Zhang Novak Moreau Schmidt Ahmed'
).split(' ');
const AREAS = (
  'engineering design sales support marketing ops security mobile web data infra legal finance ' +
  'people product research qa docs community release devrel platform billing growth analytics'
).split(' ');
const KINDS = (
  'general announcements help random standup incidents planning reviews hiring social alerts ' +
  'builds feedback ideas triage roadmap metrics offsite onboarding questions'
).split(' ');
const SYLLABLES = 'ka lo re mi sa tu ven dor ish al po ne ri ta gu fe zo bar lin mo'.split(' ');
const TIMEZONES = ['Europe/Rome', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Kolkata', 'Asia/Tokyo', 'Africa/Lagos', 'Australia/Sydney'];
const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5'];
const CLIENTS = ['website', 'website', 'ZulipMobile', 'ZulipElectron', 'ZulipTerminal'];

type Rand = () => number;
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
/** 0..n-1, Zipf-like (log-uniform): index k about twice as likely as 2k. */
const zipfIndex = (rand: Rand, n: number) => Math.min(n - 1, Math.floor(Math.exp(rand() * Math.log(n + 1))) - 1);

/** A vocabulary: the common words, then made-up ones, ranked by frequency. */
function vocabulary(rand: Rand, size: number): string[] {
  const words = new Set(COMMON);
  while (words.size < size) words.add(Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(rand, SYLLABLES)).join(''));
  return [...words];
}

/** Cumulative weights, for picking by weight with a binary search. */
function cumulative(weights: ArrayLike<number>): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) out[i] = sum += weights[i]!;
  return out;
}

function pickWeighted(rand: Rand, cum: Float64Array): number {
  const x = rand() * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `k` distinct items of `xs` (a partial Fisher-Yates shuffle of a copy). */
function sample(rand: Rand, xs: ArrayLike<number>, k: number): Set<number> {
  const a = Array.from(xs);
  const n = Math.min(k, a.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rand() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return new Set(a.slice(0, n));
}

/** Whole counts proportional to `weights`, each at least 1, adding up to `total` (>= weights.length). */
function apportion(weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.max(1, Math.floor((w / sum) * total)));
  let diff = total - out.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % out.length) {
    const by = diff > 0 ? 1 : out[i]! > 1 ? -1 : 0;
    out[i]! += by;
    diff -= by;
  }
  return out;
}

// --- the seed ----------------------------------------------------------------------------------

/**
 * Seeds the organisation into an empty realm (after `seedRealm`), inside the caller's
 * transaction. Returns the counts written.
 */
export function seedLargeOrg(srv: ServerState, opts: { scale?: number; seed?: number } = {}): LargeOrgShape {
  const shape = largeOrgShape(opts.scale ?? 1);
  const rand = seededRandom(opts.seed ?? DEFAULT_SEED);
  const db = srv.db;
  const start = END - SPAN;

  // Users: the benchmark's owner first, a few admins and moderators, some guests and bots.
  const insertUser = db.prepare(
    `INSERT INTO users (email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, api_key, password_hash, date_joined, timezone)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const keyChars = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
  const apiKey = () => Array.from({ length: 32 }, () => pick(rand, keyChars)).join('');
  const userIds: number[] = [];
  const names: string[] = [];
  for (let i = 0; i < shape.users; i++) {
    const bot = i > 0 && i % 500 === 0;
    const name = i === 0 ? LARGE_ORG_NAME : bot ? `${pick(rand, AREAS)} bot ${i}` : `${pick(rand, FIRST)} ${pick(rand, LAST)}`;
    const email = i === 0 ? LARGE_ORG_EMAIL : `${name.toLowerCase().replace(/ /g, '.')}.${i}@example.com`;
    const role = i === 0 ? ROLE.owner : i <= 5 ? ROLE.administrator : i <= 25 ? ROLE.moderator : i % 50 === 7 ? ROLE.guest : ROLE.member;
    const info = insertUser.run(email, email, name, role, bot ? 1 : 0, bot ? 1 : null, bot ? userIds[0]! : null, apiKey(), i === 0 ? hashPassword(DEMO_PASSWORD) : null, start - 86_400 * (1 + Math.floor(rand() * 900)), pick(rand, TIMEZONES));
    userIds.push(Number(info.lastInsertRowid));
    names.push(name);
  }
  const self = userIds[0]!;
  const humans = userIds.filter((_, i) => i === 0 || i % 500 !== 0);

  // Channels, by rank: the first carry most messages. Names shuffled over the ranks.
  const channelNames = AREAS.flatMap((a) => KINDS.map((k) => `${a} ${k}`));
  for (let i = channelNames.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [channelNames[i], channelNames[j]] = [channelNames[j]!, channelNames[i]!];
  }
  const weights = Array.from({ length: shape.channels }, (_, r) => 1 / (r + 1) ** 1.1);
  const insertRecipient = db.prepare('INSERT INTO recipients (type, channel_id, dm_key) VALUES (?, ?, ?)');
  const insertChannel = db.prepare(
    `INSERT INTO channels (name, description, rendered_description, invite_only, history_public_to_subscribers, is_default, date_created, creator_id, recipient_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setRecipientChannel = db.prepare('UPDATE recipients SET channel_id = ? WHERE id = ?');
  const insertSub = db.prepare('INSERT INTO subscriptions (user_id, channel_id, color, is_muted, pin_to_top) VALUES (?, ?, ?, ?, ?)');
  const channels: Array<{ id: number; recipientId: number; members: number[]; skimmed: boolean }> = [];
  for (let r = 0; r < shape.channels; r++) {
    const name = r < channelNames.length ? channelNames[r]! : `channel ${r}`;
    const invite = r > 2 && rand() < 0.1;
    const recipientId = Number(insertRecipient.run('channel', null, null).lastInsertRowid);
    const description = `Everything about ${name}.`;
    const id = Number(insertChannel.run(name, description, `<p>${escapeHtml(description)}</p>`, invite ? 1 : 0, invite ? 0 : 1, r < 3 ? 1 : 0, start - 86_400, self, recipientId).lastInsertRowid);
    setRecipientChannel.run(id, recipientId);
    channels.push({ id, recipientId, members: [], skimmed: rand() < 0.3 });
  }
  // Subscriptions: everyone in the default channels, plus a few to a few dozen more, the popular
  // channels more often. The benchmark's user is in every channel.
  const channelCum = cumulative(weights);
  for (const c of channels) insertSub.run(self, c.id, pick(rand, COLORS), c.skimmed && rand() < 0.15 ? 1 : 0, channels.indexOf(c) < 5 ? 1 : 0);
  for (const uid of userIds.slice(1)) {
    const mine = new Set<number>(channels.slice(0, 3).map((_, i) => i));
    const extra = 2 + zipfIndex(rand, 40);
    for (let k = 0; k < extra; k++) mine.add(pickWeighted(rand, channelCum));
    for (const i of [...mine].sort((a, b) => a - b)) {
      channels[i]!.members.push(uid);
      insertSub.run(uid, channels[i]!.id, pick(rand, COLORS), 0, 0);
    }
  }
  // Last: senders are picked from the front of the list (the benchmark's user writes little).
  for (const c of channels) c.members.push(self);

  // Topics: apportioned to channels by a flatter power of their weight, at least one each.
  const perChannel = apportion(weights.map((w) => w ** 0.7), Math.max(shape.topics, shape.channels));
  const vocab = vocabulary(rand, 2_000);
  const topicWords = vocab.slice(40, 400);
  const topics: Array<{ channel: number; name: string }> = [];
  const topicWeights: number[] = [];
  perChannel.forEach((count, c) => {
    const seen = new Set<string>();
    for (let k = 0; k < count; k++) {
      let name = `${vocab[zipfIndex(rand, 300) + 30]!} ${pick(rand, topicWords)}`;
      if (seen.has(topicKey(name))) name = `${name} ${k}`;
      seen.add(topicKey(name));
      topics.push({ channel: c, name });
      topicWeights.push(weights[c]! / (k + 1) ** 0.9);
    }
  });
  const topicCum = cumulative(topicWeights);

  // DM pairs: a few hundred; the benchmark's user in one in five.
  const pairs: Array<{ recipientId: number; members: [number, number] }> = [];
  const pairKeys = new Set<string>();
  while (pairs.length < shape.dmPairs) {
    const a = pairs.length % 5 === 0 ? self : pick(rand, humans);
    const b = pick(rand, humans);
    const key = [a, b].sort((x, y) => x - y).join(',');
    if (a === b || pairKeys.has(key)) {
      if (humans.length < 3) break;
      continue;
    }
    pairKeys.add(key);
    pairs.push({ recipientId: Number(insertRecipient.run('dm', null, key).lastInsertRowid), members: [a, b] });
  }
  const pairCum = cumulative(pairs.map((_, i) => 1 / (i + 1)));

  // The conversation of each message, in time order: every topic once, then by weight; shuffled.
  // Values: topic index, or -(pair index + 1).
  const dms = pairs.length > 0 ? shape.dms : 0;
  const plan = new Int32Array(Math.max(shape.messages, topics.length + dms));
  let at = 0;
  for (let t = 0; t < topics.length; t++) plan[at++] = t;
  for (let k = 0; k < dms; k++) plan[at++] = -(pickWeighted(rand, pairCum) + 1);
  while (at < plan.length) plan[at++] = pickWeighted(rand, topicCum);
  for (let i = plan.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const x = plan[i]!;
    plan[i] = plan[j]!;
    plan[j] = x;
  }
  const membersOf = (p: number) => (p >= 0 ? channels[topics[p]!.channel]!.members : pairs[-p - 1]!.members);
  // A few people write most of a conversation.
  const senders = Int32Array.from(plan, (p) => {
    const members = membersOf(p);
    return members[Math.floor(members.length * rand() ** 3)]!;
  });

  // Which of the benchmark user's messages are unread (Efraimidis-Spirakis: exactly `unread`,
  // weighted to recent ones and to skimmed channels), mention it, are starred.
  const received: number[] = [];
  const keys: number[] = [];
  for (let i = 0; i < plan.length; i++) {
    const p = plan[i]!;
    if ((p < 0 && !pairs[-p - 1]!.members.includes(self)) || senders[i] === self) continue;
    const recency = 1 + 30 * (i / plan.length) ** 8;
    const w = p < 0 ? 0.5 * recency : (channels[topics[p]!.channel]!.skimmed ? 6 : 1) * recency;
    received.push(i);
    keys.push(Math.log(rand()) / w);
  }
  const sorted = Float64Array.from(keys).sort();
  const threshold = sorted[Math.max(0, sorted.length - shape.unread)] ?? 0;
  const unread = new Set<number>();
  received.forEach((i, k) => {
    if (keys[k]! >= threshold) unread.add(i);
  });
  const channelReceived = received.filter((i) => plan[i]! >= 0);
  const mentions = sample(rand, channelReceived, shape.mentions);
  const starred = sample(rand, received, shape.starred);

  // The secondary indexes of the bulk tables are built once at the end, from the same DDL read
  // back from the schema (sorted builds: the seed takes about a fifth less CPU time).
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('messages', 'user_messages')").all() as Array<{ name: string; sql: string }>;
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
  const insertMessage = db.prepare(
    `INSERT INTO messages (type, channel_id, topic, topic_key, recipient_id, sender_id, content, rendered_content, date_sent, client, has_link)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertUm = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  const insertFts = db.prepare('INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  const step = SPAN / plan.length;
  const selfMention = `@**${LARGE_ORG_NAME}**`;
  const selfMentionHtml = `<span class="user-mention" data-user-id="${self}">@${escapeHtml(LARGE_ORG_NAME)}</span>`;
  const wildcardHtml = '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>';
  for (let i = 0; i < plan.length; i++) {
    const p = plan[i]!;
    const topic = p >= 0 ? topics[p]! : null;
    const channel = topic ? channels[topic.channel]! : null;
    const pair = p < 0 ? pairs[-p - 1]! : null;
    const sender = senders[i]!;
    const words = Array.from({ length: 4 + Math.floor(rand() * 18) }, () => vocab[zipfIndex(rand, vocab.length)]!);
    const text = words.join(' ');
    const link = rand() < 0.05 ? `https://example.com/${vocab[zipfIndex(rand, vocab.length)]}/${i}` : '';
    const mention = mentions.has(i) ? (rand() < 0.1 ? 'all' : 'self') : null;
    const md = `${mention === 'self' ? `${selfMention} ` : mention === 'all' ? '@**all** ' : ''}${text}${link ? ` ${link}` : ''}`;
    const html = `<p>${mention === 'self' ? `${selfMentionHtml} ` : mention === 'all' ? `${wildcardHtml} ` : ''}${escapeHtml(text)}${link ? ` <a href="${link}">${link}</a>` : ''}</p>`;
    const id = Number(
      insertMessage.run(channel ? 'stream' : 'private', channel?.id ?? null, topic?.name ?? '', topic ? topicKey(topic.name) : '', channel?.recipientId ?? pair!.recipientId, sender, md, html, Math.floor(start + i * step), pick(rand, CLIENTS), link ? 1 : 0).lastInsertRowid,
    );
    const base = pair ? FLAG.is_private : 0;
    if (channel || pair!.members.includes(self)) {
      let flags = base | (unread.has(i) ? 0 : FLAG.read) | (starred.has(i) ? FLAG.starred : 0);
      if (mention === 'self') flags |= FLAG.mentioned;
      else if (mention === 'all') flags |= FLAG.stream_wildcard_mentioned;
      insertUm.run(self, id, flags);
    }
    for (const uid of pair ? pair.members : [sender]) if (uid !== self) insertUm.run(uid, id, base | (uid === sender ? FLAG.read : 0));
    insertFts.run(id, topic?.name ?? '', `${mention === 'self' ? `@${LARGE_ORG_NAME} ` : mention === 'all' ? '@all ' : ''}${text}${link ? ` ${link}` : ''}`);
  }
  for (const i of indexes) db.exec(i.sql);
  db.prepare('UPDATE channels SET first_message_id = (SELECT MIN(id) FROM messages WHERE channel_id = channels.id)').run();
  return { ...shape, users: userIds.length, topics: topics.length, messages: plan.length, dms, dmPairs: pairs.length, unread: unread.size, mentions: mentions.size, starred: starred.size };
}
