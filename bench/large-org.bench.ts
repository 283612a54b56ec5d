/**
 * A large organisation (server/demo/large-org.ts: at scale 1, 10,000 users, 500 channels, 50,000
 * topics, 1,000,000 messages, 100,000 unread for the signed-in user), the reference server on
 * loopback, each measure against a baseline of the same run:
 *  - the seed itself (one transaction of prepared inserts; target under a minute);
 *  - first sign-in to a usable Inbox: register + the snapshot stored + the first history batch
 *    (1,000 messages) stored, against the same register and page fetched and parsed, not stored;
 *  - the engine's memory (JS heap and RSS added by opening the signed-in account and answering
 *    the Inbox, the sidebar and the user list) and the database sizes (reported);
 *  - the rest on a store holding every message the user can see, filled in bulk straight from the
 *    server's rows through the engine's own row writer (fetching ~960,000 messages over HTTP
 *    would take many minutes): a restart to the first Inbox answer offline (session open +
 *    unread counts, channels with topics, DM conversations) against better-sqlite3 opening the
 *    file and the bare SQL of the same counts; the sidebar's channels with 500 channels and
 *    50,000 topics, and the unread counts with 100,000 unread, each against bare SQL;
 *  - the compose box's `@` typeahead (the renderer's ranking function) over the 10,000 users: p95
 *    within one frame;
 *  - local search (a search narrow's page of 50) against the FTS5 query alone: p95 < 50 ms and
 *    within 3x;
 *  - a burst of 10,000 events (new messages, messages read, stars) through the session's own
 *    apply step, against the same row writes as a raw loop.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { ApiConnection, getMessages, parseEvent, registerQueue, silentLogger, type Message, type ZulipEvent } from '../sync/api/index.js';
import { FLAG, flagsToBits, HAS_ROW } from '../sync/db/flags.js';
import { openLocalDb, type LocalDb } from '../sync/db/open.js';
import { htmlToText, messageRow } from '../sync/db/queries/message-columns.js';
import { writeMessageRow } from '../sync/db/queries/messages.js';
import { setAccount, setEngineSetting } from '../sync/db/queries/state.js';
import { FETCH_FORMAT } from '../sync/engine/backfill.js';
import { EVENT_TYPES, FETCH_EVENT_TYPES, registerAndSync } from '../sync/engine/initial-sync.js';
import { readNarrowPage } from '../sync/engine/narrow/reader.js';
import { AccountSession, accountFileName } from '../sync/engine/session.js';
import { mentionSuggestions } from '../renderer/src/compose/text-typeahead.js';
import { LARGE_ORG_EMAIL, largeOrgShape } from '../server/demo/large-org.js';
import { flagNames } from '../server/model/flags.js';
import { startServer, type RunningServer } from '../server/index.js';
import { ftsQuery } from '../common/search.js';
import { rawLoop, type RawWrite } from './engine-store.bench.js';
import { check, checkValue, interleave, printChecks, statsOf, type Check, type Stats } from './lib.js';

const SUITE = 'large-org';
const EMAIL = LARGE_ORG_EMAIL;
const FIRST_PAGE = 1_000;
const BURST = 10_000;
const PER_TX = 100;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en');
/** What is typed after `@`, letter by letter, in turns. */
const TYPED = ['', 'm', 'ma', 'mar', 'mari', 'maria', 'maria s', 'k', 'ko', 'kofi', 'zh', 'silva'];

interface Memory {
  readonly rss: number;
  readonly heap: number;
}

/** RSS and JS heap of a process that opens the signed-in account offline and answers the Inbox (bench/large-org-memory-child.ts). */
function engineMemory(dataDir: string, realmUrl: string): Promise<{ before: Memory; after: Memory }> {
  const child = join(import.meta.dirname, 'large-org-memory-child.ts');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', child, dataDir, realmUrl, EMAIL], { cwd: join(import.meta.dirname, '..'), timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`memory child: ${error.message} ${stderr.slice(0, 500)}`));
      resolve(JSON.parse(stdout.trim()) as { before: Memory; after: Memory });
    });
  });
}

const registerArgs = { event_types: EVENT_TYPES, fetch_event_types: FETCH_EVENT_TYPES, apply_markdown: true, client_gravatar: false, slim_presence: true };

/** The server's rows as `GET /messages` objects, as the user sees them (its flags). */
export function messagesFrom(server: RunningServer, self: number, aboveId = 0): () => Generator<Message> {
  const db = server.state.db;
  const users = new Map((db.prepare('SELECT id, email, full_name FROM users').all() as Array<{ id: number; email: string; full_name: string }>).map((u) => [u.id, u]));
  const channels = new Map((db.prepare('SELECT id, name FROM channels').all() as Array<{ id: number; name: string }>).map((c) => [c.id, c.name]));
  const dmUsers = new Map(
    (db.prepare("SELECT id, dm_key FROM recipients WHERE type = 'dm'").all() as Array<{ id: number; dm_key: string }>).map((r) => [
      r.id,
      r.dm_key.split(',').map((id) => ({ id: Number(id), email: users.get(Number(id))!.email, full_name: users.get(Number(id))!.full_name, is_mirror_dummy: false })),
    ]),
  );
  type Row = { id: number; type: string; channel_id: number | null; topic: string; recipient_id: number; sender_id: number; rendered_content: string; date_sent: number; client: string; flags: number };
  const rows = db.prepare(
    `SELECT m.id, m.type, m.channel_id, m.topic, m.recipient_id, m.sender_id, m.rendered_content, m.date_sent, m.client, um.flags
       FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ? AND um.message_id > ? ORDER BY um.message_id`,
  );
  return function* () {
    for (const r of rows.iterate(self, aboveId) as IterableIterator<Row>) {
      const sender = users.get(r.sender_id)!;
      const base = {
        id: r.id, content: r.rendered_content, content_type: 'text/html' as const, timestamp: r.date_sent, client: r.client, avatar_url: null, sender_id: r.sender_id,
        sender_email: sender.email, sender_full_name: sender.full_name, sender_realm_str: 'zulip', is_me_message: false, flags: flagNames(r.flags), reactions: [],
        submessages: [], topic_links: [], recipient_id: r.recipient_id,
      };
      yield r.type === 'stream'
        ? { ...base, type: 'stream', stream_id: r.channel_id!, subject: r.topic, display_recipient: channels.get(r.channel_id!)! }
        : { ...base, type: 'private', subject: '', display_recipient: dmUsers.get(r.recipient_id)! };
    }
  };
}

/** Every message the user can see not yet stored, through the engine's row writer, 10,000 per transaction. */
export function fillStore(db: LocalDb, messages: () => Generator<Message>): number {
  const have = new Set(db.prepare('SELECT id FROM messages').pluck().all() as number[]);
  let batch: Message[] = [];
  let n = 0;
  const write = db.transaction((ms: Message[]) => {
    for (const m of ms) writeMessageRow(db, messageRow(m, flagsToBits(m.flags) | HAS_ROW), m.content, true);
  });
  for (const m of messages()) {
    if (have.has(m.id)) continue;
    batch.push(m);
    if (batch.length === 10_000) {
      write(batch);
      n += batch.length;
      batch = [];
    }
  }
  write(batch);
  return n + batch.length;
}

export async function benchLargeOrg(opts: { scale: number }): Promise<void> {
  const shape = largeOrgShape(opts.scale);
  const dir = mkdtempSync(join(tmpdir(), 'large-org-bench-'));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server = await startServer({ largeOrg: { scale: opts.scale }, schedulerIntervalMs: 0, config: { rateLimit: false, longPollSeconds: 2 } });
  const seedMs = performance.now() - t0;
  const seedCpu = process.cpuUsage(cpu0);
  const realmUrl = server.url;
  const apiKey = server.apiKey(EMAIL);
  const conn = new ApiConnection({ realmUrl, email: EMAIL, apiKey, logger: silentLogger, timeoutMs: 300_000 });
  const fileName = accountFileName(realmUrl, EMAIL);
  const checks: Check[] = [];
  const notes: string[] = [`seed: ${((seedCpu.user + seedCpu.system) / 1e6).toFixed(1)} s of CPU time (wall time counts the machine's other load)`];
  const sessions: AccountSession[] = [];
  try {
    checks.push(checkValue(SUITE, `seed: ${count(shape.messages)} messages, ${count(shape.users)} users, ${count(shape.channels)} channels`, { n: seedMs, text: `${(seedMs / 1000).toFixed(1)} s` }, { name: 'one minute', n: 60_000, text: '60 s' }, { below: 60_000, text: '60 s' }));

    // --- first sign-in ------------------------------------------------------------------------
    let round = 0;
    const signInDir = (r: number) => join(dir, `signin-${r}`);
    const [fetchOnly, signIn] = await interleave(
      [
        {
          name: `register + first ${count(FIRST_PAGE)} messages fetched and parsed, not stored`,
          fn: async () => {
            await registerQueue(conn, registerArgs);
            await getMessages(conn, { anchor: 'newest', include_anchor: true, num_before: FIRST_PAGE, num_after: 0, narrow: [], ...FETCH_FORMAT });
          },
        },
        {
          name: `first sign-in: register + snapshot + first ${count(FIRST_PAGE)} messages stored`,
          setup: () => {
            rmSync(signInDir(round - 1), { recursive: true, force: true });
            mkdirSync(signInDir(round), { recursive: true });
          },
          fn: async () => {
            const db = openLocalDb(join(signInDir(round++), fileName));
            setAccount(db, { realm_url: realmUrl, email: EMAIL });
            setEngineSetting(db, 'backfill_depth', FIRST_PAGE);
            await registerAndSync({ conn, db, now: Date.now }, 'initial');
            db.close();
          },
        },
      ],
      { runs: 3, warmup: 1 },
    );
    checks.push(check(SUITE, signIn!, fetchOnly!, { max: 2 }));
    const signedIn = signInDir(round - 1);
    const signedInFile = join(signedIn, fileName);
    const registerBytes = Buffer.byteLength(
      await (
        await fetch(`${realmUrl}/api/v1/register`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${EMAIL}:${apiKey}`).toString('base64')}` },
          body: new URLSearchParams({ event_types: JSON.stringify(EVENT_TYPES), fetch_event_types: JSON.stringify(FETCH_EVENT_TYPES), apply_markdown: 'true', client_gravatar: 'false', slim_presence: 'true' }),
        })
      ).text(),
    );

    // --- memory and sizes -------------------------------------------------------------------------
    const memory = await engineMemory(signedIn, realmUrl);
    const self = Number(openLocalDb(signedInFile).prepare('SELECT user_id FROM account').pluck().get());
    checks.push(checkValue(SUITE, 'engine process RSS after sign-in (account open; Inbox, sidebar, users answered)', { n: memory.after.rss, text: mb(memory.after.rss) }, { name: 'the same process before opening the account', n: memory.before.rss, text: mb(memory.before.rss) }, 'report'));
    checks.push(checkValue(SUITE, 'engine process JS heap, the same', { n: memory.after.heap, text: mb(memory.after.heap) }, { name: 'the same process before opening the account', n: memory.before.heap, text: mb(memory.before.heap) }, 'report'));
    checks.push(checkValue(SUITE, 'database after sign-in', { n: statSync(signedInFile).size, text: mb(statSync(signedInFile).size) }, { name: 'the register answer, JSON', n: registerBytes, text: mb(registerBytes) }, 'report'));
    notes.push('memory: its own process (bench/large-org-memory-child.ts), after a GC, the answers held');

    // --- the full store -------------------------------------------------------------------------
    const fullDir = join(dir, 'full');
    mkdirSync(fullDir);
    const fullFile = join(fullDir, fileName);
    copyFileSync(signedInFile, fullFile);
    rmSync(signedIn, { recursive: true, force: true });
    const fillStart = performance.now();
    const full = openLocalDb(fullFile);
    const filled = fillStore(full, messagesFrom(server, self));
    full.pragma('optimize');
    full.pragma('wal_checkpoint(TRUNCATE)');
    const stored = Number(full.prepare('SELECT count(*) FROM messages').pluck().get());
    const unread = Number(full.prepare('SELECT count(*) FROM messages WHERE (flags & 1) = 0').pluck().get());
    full.close();
    const fillMs = performance.now() - fillStart;
    const serverBytes = Number(server.state.db.pragma('page_count', { simple: true })) * Number(server.state.db.pragma('page_size', { simple: true }));
    checks.push(checkValue(SUITE, `database with ${count(stored)} messages`, { n: statSync(fullFile).size, text: mb(statSync(fullFile).size) }, { name: "the server's whole database", n: serverBytes, text: mb(serverBytes) }, 'report'));
    notes.push(
      `store filled in bulk from the server's rows (${count(filled)} messages in ${(fillMs / 1000).toFixed(1)} s, ${count(Math.round((filled * 1000) / fillMs))}/s through writeMessageRow), not over HTTP: ${count(stored)} messages stored, ${count(unread)} unread`,
    );

    // --- restart to the Inbox, offline -----------------------------------------------------------
    const BARE_TOPICS = `SELECT g.channel_id, g.topic_key, g.max_id, m.topic, json_extract(m.json, '$.timestamp') AS ts
      FROM (SELECT channel_id, topic_key, max(id) AS max_id FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id, topic_key) g JOIN messages m ON m.id = g.max_id`;
    const BARE_UNREAD = 'SELECT channel_id, topic_key, dm_key, count(*) AS n, sum((flags & 8) != 0) AS mentions FROM messages WHERE (flags & 1) = 0 GROUP BY channel_id, topic_key, dm_key';
    const BARE_CHANNELS = 'SELECT c.id, c.name, s.is_muted, s.json FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id ORDER BY c.name';
    const BARE_DMS = 'SELECT dm_key, max_message_id FROM recent_dms';
    const parts: number[][] = [];
    const [bareRestart, restart] = await interleave(
      [
        {
          name: 'better-sqlite3 opens the file + bare SQL of the unread counts, channels, DMs',
          fn: () => {
            const db = new Database(fullFile);
            db.prepare(BARE_UNREAD).all();
            db.prepare(BARE_CHANNELS).all();
            db.prepare(BARE_DMS).all();
            db.close();
          },
        },
        {
          name: 'restart offline: session open + Inbox answered (unread counts, channels, DMs)',
          fn: async () => {
            const at = [performance.now()];
            const s = AccountSession.open({ realmUrl, email: EMAIL, apiKey, dataDir: fullDir, watchClockJumps: false });
            at.push(performance.now());
            s.queries.unreadCounts();
            at.push(performance.now());
            s.queries.channels();
            at.push(performance.now());
            s.queries.dmConversations();
            at.push(performance.now());
            parts.push(at.slice(1).map((t, i) => t - at[i]!));
            await s.close();
          },
        },
      ],
      { runs: 4, warmup: 1 },
    );
    checks.push(check(SUITE, restart!, bareRestart!, { max: 2 }));
    const part = (i: number) => statsOf('', parts.slice(1).map((p) => p[i]!)).medianMs.toFixed(1);
    notes.push(`restart, median ms: session open ${part(0)}, unread counts ${part(1)}, channels with topics ${part(2)}, DM conversations ${part(3)}`);

    // --- sidebar, unread counts, typeahead, search on the open store ------------------------------
    const open = AccountSession.open({ realmUrl, email: EMAIL, apiKey, dataDir: fullDir, watchClockJumps: false });
    sessions.push(open);
    const bare = new Database(fullFile, { readonly: true });
    const bareTopics = bare.prepare(BARE_TOPICS);
    const bareChannels = bare.prepare(BARE_CHANNELS);
    const bareUnread = bare.prepare(BARE_UNREAD);
    const [sqlSidebar, sidebar, sqlUnread, unreadCounts] = await interleave(
      [
        { name: 'bare SQL: channels, topics with their newest message, unread counts', fn: () => (bareChannels.all(), bareTopics.all(), bareUnread.all()) },
        { name: `sidebar: channels() with ${count(shape.channels)} channels, ${count(shape.topics)} topics`, fn: () => open.queries.channels() },
        { name: 'bare SQL: unread count per topic and DM', fn: () => bareUnread.all() },
        { name: `unread counts with ${count(unread)} unread: unreadCounts()`, fn: () => open.queries.unreadCounts() },
      ],
      { runs: 6, warmup: 1 },
    );
    checks.push(check(SUITE, sidebar!, sqlSidebar!, { max: 2 }));
    checks.push(check(SUITE, unreadCounts!, sqlUnread!, { max: 2 }));

    const users = open.queries.users();
    const busiest = Number(server.state.db.prepare('SELECT channel_id FROM messages WHERE channel_id IS NOT NULL GROUP BY channel_id ORDER BY count(*) DESC LIMIT 1').pluck().get());
    const subscribers = new Set(server.state.db.prepare('SELECT user_id FROM subscriptions WHERE channel_id = ?').pluck().all(busiest) as number[]);
    const ctx = { users, groups: [], conversation: { kind: 'channel' as const, channelId: busiest, topic: 'x' }, subscribers };
    let q = 0;
    let b = 0;
    const [plainFilter, typeahead] = await interleave(
      [
        { name: 'plain substring filter of the same names', fn: () => users.filter((u) => u.full_name.toLowerCase().includes(TYPED[b++ % TYPED.length]!)) },
        { name: `@ typeahead over ${count(users.length)} users (mentionSuggestions)`, fn: () => mentionSuggestions(ctx, TYPED[q++ % TYPED.length]!, false) },
      ],
      { runs: 6 * TYPED.length, warmup: TYPED.length },
    );
    checks.push(check(SUITE, typeahead!, plainFilter!, { p95Max: 16.7 }));

    const fts = bare.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 51');
    for (const text of ['deploy', 'review bra']) {
      const match = ftsQuery(text);
      if (match === null) throw new Error(`no search words in ${text}`);
      const [alone, ours] = await interleave(
        [
          { name: 'FTS5 query alone, same MATCH, 51 ids', fn: () => fts.all(match) },
          {
            name: `local search "${text}", page of 50`,
            fn: () => {
              if (readNarrowPage(open.db, [{ operator: 'search', operand: text }], { anchor: 'newest', before: 50, after: 0 }, self).messages.length === 0) throw new Error(`no search results: ${text}`);
            },
          },
        ],
        { runs: 40, warmup: 5 },
      );
      checks.push(check(SUITE, ours!, alone!, { max: 3 }));
      checks.push(check(SUITE, ours!, alone!, { p95Max: 50 }));
    }
    const unreadIds = bare.prepare(`SELECT id FROM messages WHERE (flags & 1) = 0 ORDER BY id DESC LIMIT ${4 * BURST}`).pluck().all() as number[];
    bare.close();
    await sessions.pop()!.close();

    // --- a burst of 10,000 events ------------------------------------------------------------------
    checks.push(await benchBurst({ server, self, realmUrl, apiKey, source: fullFile, dir, unreadIds, notes }));
  } finally {
    for (const s of sessions) await s.close();
    await conn.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printChecks(`Large organisation (${count(shape.users)} users, ${count(shape.channels)} channels, ${count(shape.topics)} topics, ${count(shape.messages)} messages)`, checks, [
    ...notes,
    `sign-in: the first page is the engine's first history batch of ${count(FIRST_PAGE)} (backfill depth set to it); both sides parse the answers with zod`,
    'restart: in this process (module loading not counted; see cold-start), the session is not started (no network)',
    `typeahead: ${TYPED.map((t) => `"${t}"`).join(', ')} in turns, in the busiest channel (its subscribers first)`,
  ]);
}

/** The session's apply step on a copy of the full store, against the raw loop of the same writes on another copy. */
export async function benchBurst(o: { server: RunningServer; self: number; realmUrl: string; apiKey: string; source: string; dir: string; unreadIds: readonly number[]; notes: string[] }): Promise<Check> {
  const runs = 3;
  const warmup = 1;
  const topics = o.server.state.db.prepare("SELECT channel_id, topic FROM messages WHERE type = 'stream' GROUP BY channel_id, topic_key ORDER BY max(id) DESC LIMIT 200").all() as Array<{ channel_id: number; topic: string }>;
  const sample = [...messagesFrom(o.server, o.self, Number(o.server.state.db.prepare('SELECT max(id) - 2000 FROM messages').pluck().get()))()].filter((m) => m.type === 'stream');
  let nextId = 2_000_000_000;
  let eventId = 0;
  let unreadAt = 0;
  const streams = Array.from({ length: runs + warmup }, () => {
    const events: ZulipEvent[] = [];
    const raw: RawWrite[][] = [];
    for (let i = 0; i < BURST; i++) {
      if (i % PER_TX === 0) raw.push([]);
      const writes = raw.at(-1)!;
      const k = i % 10;
      const n = eventId++;
      if (k < 5) {
        const t = topics[n % topics.length]!;
        const like = sample[n % sample.length]!;
        const m: Message = { ...like, id: nextId++, stream_id: t.channel_id, subject: t.topic, flags: [] } as Message;
        events.push(parseEvent({ id: n, type: 'message', message: { ...m, flags: undefined }, flags: [] }));
        writes.push({ op: 'insert', row: messageRow(m, HAS_ROW), text: htmlToText(m.content) });
      } else {
        const flag = k < 9 ? 'read' : 'starred';
        const id = flag === 'read' ? o.unreadIds[unreadAt++ % o.unreadIds.length]! : o.unreadIds[(n * 7919) % o.unreadIds.length]!;
        events.push(parseEvent({ id: n, type: 'update_message_flags', op: 'add', operation: 'add', flag, messages: [id], all: false }));
        writes.push({ op: 'flag', id, bit: FLAG[flag], add: true });
      }
    }
    return { events, raw };
  });
  const engineDir = join(o.dir, 'burst');
  mkdirSync(engineDir);
  copyFileSync(o.source, join(engineDir, accountFileName(o.realmUrl, EMAIL)));
  const session = AccountSession.open({ realmUrl: o.realmUrl, email: EMAIL, apiKey: o.apiKey, dataDir: engineDir, watchClockJumps: false });
  const apply: unknown = Reflect.get(session, 'apply');
  if (typeof apply !== 'function') throw new Error('AccountSession.apply is gone: update bench/large-org.bench.ts');
  const loop = rawLoop(o.source, join(o.dir, 'burst-raw.sqlite'));
  let s: Stats[];
  let er = 0;
  let rr = 0;
  let last = 0;
  try {
    s = await interleave(
      [
        { name: `raw loop, same writes (${count(BURST)} events)`, itemsPerRun: BURST, fn: () => loop(streams[rr++]!.raw) },
        {
          name: `burst of ${count(BURST)} events applied by the session`,
          itemsPerRun: BURST,
          fn: () => {
            const { events } = streams[er++]!;
            for (let i = 0; i < events.length; i += PER_TX) {
              last += PER_TX;
              apply.call(session, events.slice(i, i + PER_TX), { queue_id: 'bench', last_event_id: last });
            }
          },
        },
      ],
      { runs, warmup },
    );
  } finally {
    await session.close();
  }
  const [raw, ours] = s;
  const rate = (x: Stats) => `${count(Math.round((BURST * 1000) / x.medianMs))} events/s`;
  o.notes.push(`event burst: 50% new messages, 40% marked read, 10% starred, in transactions of ${PER_TX}: ${rate(ours!)} (raw loop ${rate(raw!)})`);
  return check(SUITE, ours!, raw!, { max: 3 });
}
