/**
 * Generated demo history for large realms (`demoMessages`, the benchmark's 100,000): messages
 * spread over the channels' topics and the demo users' direct-message conversations, from a
 * seeded PRNG so every run produces the same realm. Written with prepared statements straight
 * into the tables (messages, user_messages with flags, the full-text index) inside the seed's
 * transaction: rendering each message through the send path would take minutes.
 */
import { escapeHtml } from '../markdown/zulip-syntax.js';
import { dmRecipientId, subscriberIds, type ChannelRow } from '../model/access.js';
import { FLAG } from '../model/flags.js';
import { seededRandom } from '../../common/random.js';
import { topicKey } from '../../common/topic-key.js';
import type { ServerState } from '../state.js';

/** The demo history's PRNG (mulberry32, common/random.ts). */
export const prng = seededRandom;

const TOPICS: Readonly<Record<string, readonly string[]>> = {
  general: ['announcements', 'lunch plans', 'office hours', 'random', 'tooling', 'weekly sync', 'hiring', 'travel'],
  Verona: ['balcony scene', 'sword fight', 'apothecary', 'masquerade', 'letters', 'friar lawrence'],
  Denmark: ['castle', 'ghost sightings', 'the play', 'graveyard', 'royal court', 'poisoned cup', 'england voyage'],
  Scotland: ['heath weather', 'castle repairs', 'prophecies', 'banquet', 'birnam wood', 'thanes'],
  'core team': ['planning', 'budget', 'roadmap', 'incidents', 'release checklist'],
};

const WORDS = (
  'the castle king queen ghost night watch sword letter poison crown court play player stage ' +
  'tomorrow today meeting plan release build test review deploy server client message topic ' +
  'channel idea question answer agree think should could would really maybe soon later ' +
  'storm heath witch prophecy banquet forest army wall tower garden balcony moon star ' +
  'friend brother sister father mother honour truth love fortune revenge madness wisdom'
).split(' ');

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

function sentence(rand: () => number): string {
  const n = 5 + Math.floor(rand() * 11);
  const words = Array.from({ length: n }, () => pick(rand, WORDS));
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}${pick(rand, ['.', '.', '.', '?', '!'])}`;
}

interface Conversation {
  readonly channelId: number | null;
  readonly topic: string;
  readonly recipientId: number;
  /** Who receives it (subscribers, or the participants). */
  readonly members: readonly number[];
}

/**
 * Inserts `count` messages dated evenly between `start` and `end` (UNIX seconds), all read by
 * everyone (the hand-written demo content supplies the unread ones).
 */
export function seedGeneratedMessages(srv: ServerState, count: number, start: number, end: number): void {
  if (count <= 0) return;
  const db = srv.db;
  const rand = prng(0x5eed);
  const users = db.prepare('SELECT id, full_name FROM users WHERE is_active = 1 AND is_bot = 0 ORDER BY id').all() as Array<{ id: number; full_name: string }>;
  const channels = db.prepare('SELECT * FROM channels WHERE is_archived = 0 ORDER BY id').all() as ChannelRow[];

  const conversations: Conversation[] = [];
  for (const ch of channels) {
    const members = subscriberIds(srv, ch.id);
    if (members.length === 0) continue;
    for (const topic of TOPICS[ch.name] ?? ['chatter']) conversations.push({ channelId: ch.id, topic, recipientId: ch.recipient_id, members });
  }
  const dms: Conversation[] = [];
  for (let i = 0; i < users.length; i++) {
    for (let j = i + 1; j < users.length; j++) {
      const members = [users[i]!.id, users[j]!.id];
      dms.push({ channelId: null, topic: '', recipientId: dmRecipientId(srv, members), members });
    }
  }
  if (users.length >= 3) {
    const members = users.slice(3, 6).map((u) => u.id);
    if (members.length === 3) dms.push({ channelId: null, topic: '', recipientId: dmRecipientId(srv, members), members });
  }

  const insertMessage = db.prepare(
    `INSERT INTO messages (type, channel_id, topic, topic_key, recipient_id, sender_id, content, rendered_content, date_sent, client, has_link)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const insertUm = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  const insertFts = db.prepare('INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  const step = count > 1 ? (end - start) / (count - 1) : 0;

  for (let i = 0; i < count; i++) {
    const conv = rand() < 0.8 || dms.length === 0 ? pick(rand, conversations) : pick(rand, dms);
    const senderId = pick(rand, conv.members);
    let text = sentence(rand);
    if (rand() < 0.3) text += ` ${sentence(rand)}`;
    let html = `<p>${escapeHtml(text)}</p>`;
    let mentioned: number | null = null;
    if (conv.channelId !== null && rand() < 0.02) {
      const target = users.find((u) => conv.members.includes(u.id) && u.id !== senderId);
      if (target) {
        mentioned = target.id;
        text = `@**${target.full_name}** ${text}`;
        html = `<p><span class="user-mention" data-user-id="${target.id}">@${escapeHtml(target.full_name)}</span> ${escapeHtml(text.slice(text.indexOf('** ') + 3))}</p>`;
      }
    }
    const info = insertMessage.run(
      conv.channelId === null ? 'private' : 'stream',
      conv.channelId,
      conv.topic,
      topicKey(conv.topic),
      conv.recipientId,
      senderId,
      text,
      html,
      Math.floor(start + i * step),
      pick(rand, ['website', 'ZulipMobile', 'ZulipTerminal']),
    );
    const id = Number(info.lastInsertRowid);
    const base = FLAG.read | (conv.channelId === null ? FLAG.is_private : 0);
    for (const uid of conv.members) insertUm.run(uid, id, uid === mentioned ? base | FLAG.mentioned : base);
    insertFts.run(id, conv.topic, text.replace(/@\*\*([^*]+)\*\*/g, '@$1'));
  }
  db.prepare('UPDATE channels SET first_message_id = (SELECT MIN(id) FROM messages WHERE channel_id = channels.id)').run();
}
