/**
 * The local store (sync/db/queries, sync/engine/handlers), each against a raw better-sqlite3 loop
 * doing the same row writes in the same run:
 *  - ingest of 1,000-message fetched batches through `upsertMessages` (baseline: the very same
 *    rows and search entries inserted by a raw loop);
 *  - event apply on a store of `messages` messages in a database file (WAL, as the app opens it),
 *    through the session's own apply step (`AccountSession.apply`: the handlers, move
 *    reconciliation, echo retirement, re-application of pending outbox rows over what the batch
 *    touched, and the queue position, one transaction per 100 events as the poller delivers
 *    them). A realistic mix: 40% new messages, 40% flag changes, 20% content edits. Run with 0,
 *    100 and 1,000 pending outbox rows (`update_message_content`, queued through the session's
 *    outbox with their local effect) on messages the events touch, and on messages they do not:
 *    the re-application must cost in proportion to the rows a batch touches, not to every
 *    pending row. Baseline: the same row writes (inserts, flag updates, edited rows and search
 *    entries, the re-applied edits' rows, the queue position) as a raw loop.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, ZulipEvent } from '../sync/api/index.js';
import { parseEvent } from '../sync/api/index.js';
import { FLAG, flagsToBits, HAS_ROW } from '../sync/db/flags.js';
import { openLocalDb, type LocalDb } from '../sync/db/open.js';
import { htmlToText, messageRow, type MessageRow } from '../sync/db/queries/message-columns.js';
import { upsertMessages } from '../sync/db/queries/messages.js';
import { setAccount, setQueuePosition } from '../sync/db/queries/state.js';
import { ChangeCollector } from '../sync/db/changes.js';
import type { QueuePosition } from '../sync/engine/poller.js';
import { reapplyTouched, retireEchoes } from '../sync/engine/outbox-local.js';
import { AccountSession, accountFileName } from '../sync/engine/session.js';
import { contentEditBaseOf, messageContentEdit } from '../sync/outbox/mutations/message-content-edit.js';
import * as eg from '../test/support/eg.js';
import { check, interleave, printChecks, type Check, type Stats, type Variant } from './lib.js';

const SUITE = 'engine-store';
const BATCH = 1000;
const TOPICS = ['lunch', 'castle', 'plans', 'release', 'music', 'ghosts', 'Verona', 'travel'];
const WORDS = 'the quick brown fox jumps over a lazy dog while ghosts walk the castle at night'.split(' ');

/** A deterministic, realistic message: varied topics, some DMs, links, mentions, reactions. */
function exampleMessage(id: number): Message {
  const words = Array.from({ length: 12 + (id % 30) }, (_, i) => WORDS[(id * 7 + i * 3) % WORDS.length]).join(' ');
  const link = id % 5 === 0 ? ` <a href="https://example.com/${id}">link</a>` : '';
  const content = `<p>${words}${link}</p>`;
  const flags = id % 3 === 0 ? [] : ['read'];
  if (id % 11 === 0) {
    return eg.dmMessage({ id, participants: [eg.SELF, 11 + (id % 4)], content, flags });
  }
  return eg.streamMessage({
    id,
    stream_id: 1 + (id % 6),
    subject: TOPICS[id % TOPICS.length],
    content,
    flags,
    reactions: id % 7 === 0 ? [{ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: 12 }] : [],
  });
}

const batchOf = (first: number) => Array.from({ length: BATCH }, (_, i) => exampleMessage(first + i));

async function benchIngest(): Promise<Check[]> {
  const ours = openLocalDb(':memory:');
  const raw = openLocalDb(':memory:');
  const insert = raw.prepare(`INSERT INTO messages
    (id, type, channel_id, topic, dm_key, sender_id, flags, has_link, has_image, has_attachment, has_reaction, json)
    VALUES (@id, @type, @channel_id, @topic, @dm_key, @sender_id, @flags, @has_link, @has_image, @has_attachment, @has_reaction, @json)`);
  const insertFts = raw.prepare('INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  // Batches are built (and their rows derived, for the raw loop) outside the timed part: fetching
  // and parsing are the network's and zod's cost, not the store's.
  const runs = 15;
  const warmup = 3;
  const batches = Array.from({ length: runs + warmup }, (_, i) => batchOf(1 + i * BATCH));
  const rawRows = batches.map((b) => b.map((m) => ({ row: messageRow(m), text: htmlToText(m.content) })));
  let nOurs = 0;
  let nRaw = 0;
  let nAgain = 0;
  const [rawStats, oursStats, againStats] = await interleave(
    [
      {
        name: 'raw better-sqlite3 insert loop (same rows + search)',
        fn: () =>
          raw.transaction(() => {
            for (const { row, text } of rawRows[nRaw++]!) {
              insert.run(row);
              insertFts.run(row.id, row.topic, text);
            }
          })(),
        itemsPerRun: BATCH,
      },
      { name: 'upsertMessages, 1,000 fetched messages', fn: () => upsertMessages(ours, batches[nOurs++]!, new ChangeCollector()), itemsPerRun: BATCH },
      // The batch stored in the previous turn, fetched again unchanged.
      { name: 'upsertMessages, the same 1,000 again (unchanged)', fn: () => upsertMessages(ours, batches[nAgain++]!, new ChangeCollector()), itemsPerRun: BATCH },
    ],
    { runs, warmup },
  );
  ours.close();
  raw.close();
  return [
    // The former target "at least 50% of the raw loop's rate", as a ratio.
    check(SUITE, oursStats!, rawStats!, { max: 2 }, { baselineName: 'raw insert loop, same rows + search' }),
    // Re-fetching an unchanged page reads and compares; it must cost less than writing.
    check(SUITE, againStats!, rawStats!, { max: 1 }, { baselineName: 'raw insert loop, same rows + search' }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Event apply

const SELF = 10;
const eventNotes: string[] = [];
const REALM = 'http://127.0.0.1:9'; // never contacted: the session is opened, not started
const EMAIL = 'bench@example.com';
const PER_RUN = 2000;
const PER_TX = 100;
const MAX_PENDING = 1000;

interface Layout {
  readonly storeSize: number;
  /** Targets of flag changes and edits not aimed at pending rows: 1..pool. */
  readonly pool: number;
  /** Messages with pending rows the events touch (the first N of them). */
  readonly touched: readonly number[];
  /** Messages with pending rows no event touches. */
  readonly untouched: readonly number[];
}

function layoutFor(storeSize: number): Layout {
  const pool = storeSize - 2 * MAX_PENDING;
  const range = (from: number) => Array.from({ length: MAX_PENDING }, (_, i) => from + i);
  return { storeSize, pool, touched: range(pool + 1), untouched: range(pool + MAX_PENDING + 1) };
}

/** What one event writes, precomputed for the raw loop. */
export type RawWrite = { op: 'insert'; row: MessageRow; text: string } | { op: 'flag'; id: number; bit: number; add: boolean } | { op: 'rewrite'; row: MessageRow; text: string };

interface Stream {
  readonly events: ZulipEvent[];
  /** Per transaction of PER_TX events, the raw loop's writes. */
  readonly raw: RawWrite[][];
}

const editedContent = (i: number) => `<p>edit ${i} by someone else, with a few more words than before</p>`;
const optimisticHtml = (id: number) => `<p>my offline edit of message ${id}</p>`;

/**
 * Run `run`'s events: 40% new messages, 40% flag changes (read/starred add/remove), 20% content
 * edits. The first `aimAt.length` flag changes and edits target `aimAt` (messages with pending
 * rows); the rest spread over the pool, never on a message with a pending row.
 */
function streamFor(layout: Layout, run: number, aimAt: readonly number[]): Stream {
  const events: ZulipEvent[] = [];
  const raw: RawWrite[][] = [];
  let nextId = layout.storeSize + 1 + run * PER_RUN;
  let aimed = 0;
  const pending = new Set(aimAt);
  for (let i = 0; i < PER_RUN; i++) {
    if (i % PER_TX === 0) raw.push([]);
    const writes = raw.at(-1)!;
    const k = i % 10;
    const n = run * PER_RUN + i;
    if (k < 4) {
      const m = exampleMessage(nextId++);
      events.push(parseEvent({ id: n, type: 'message', message: { ...m, flags: undefined }, flags: m.flags }));
      writes.push({ op: 'insert', row: messageRow(m, flagsToBits(m.flags) | HAS_ROW), text: htmlToText(m.content) });
      continue;
    }
    const target = aimed < aimAt.length ? aimAt[aimed++]! : 1 + ((n * 7919) % layout.pool);
    if (k < 8) {
      const flag = k % 2 === 0 ? 'read' : 'starred';
      const add = k < 6;
      events.push(parseEvent({ id: n, type: 'update_message_flags', op: add ? 'add' : 'remove', operation: add ? 'add' : 'remove', flag, messages: [target], all: false }));
      writes.push({ op: 'flag', id: target, bit: FLAG[flag], add });
    } else {
      const content = editedContent(n);
      events.push(
        parseEvent({
          id: n, type: 'update_message', user_id: 11, rendering_only: false, message_id: target, message_ids: [target], flags: ['read'],
          edit_timestamp: 1_800_000_000 + n, stream_id: 1, orig_content: 'old', orig_rendered_content: '<p>old</p>',
          content: `edit ${n}`, rendered_content: content, is_me_message: false,
        }),
      );
      const before = exampleMessage(target);
      const edited: Message = { ...before, content, last_edit_timestamp: 1_800_000_000 + n, edit_history: [{ user_id: 11, timestamp: 1_800_000_000 + n, prev_content: 'old', prev_rendered_content: '<p>old</p>' }] };
      writes.push({ op: 'rewrite', row: messageRow(edited, FLAG.read | HAS_ROW), text: htmlToText(content) });
      // The server's edit overwrote the pending offline edit: it is written again on top.
      if (pending.has(target)) {
        const mine = { ...edited, content: optimisticHtml(target) };
        writes.push({ op: 'rewrite', row: messageRow(mine, FLAG.read | HAS_ROW), text: htmlToText(mine.content) });
      }
    }
  }
  for (const e of events) if (e.type === 'malformed' || e.type === 'unknown') throw new Error(`bench event does not parse: ${JSON.stringify(e)}`);
  return { events, raw };
}

function buildStore(file: string, size: number): void {
  const db = openLocalDb(file);
  setAccount(db, { realm_url: REALM, email: EMAIL, user_id: SELF });
  for (let first = 1; first <= size; first += BATCH) {
    upsertMessages(db, batchOf(first).filter((m) => m.id <= size), new ChangeCollector(), { personal: true });
  }
  setQueuePosition(db, { queue_id: 'bench', last_event_id: -1 });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

type ApplyStep = (events: readonly ZulipEvent[], next: QueuePosition) => void;

/** A session over its own copy of the store, with `pendingOn` messages carrying a queued offline edit. */
function sessionOver(source: string, dir: string, pendingOn: readonly number[]): { session: AccountSession; apply: ApplyStep } {
  mkdirSync(dir, { recursive: true });
  copyFileSync(source, join(dir, accountFileName(REALM, EMAIL)));
  const session = AccountSession.open({ realmUrl: REALM, email: EMAIL, apiKey: 'unused', dataDir: dir, watchClockJumps: false });
  for (const id of pendingOn) session.outbox.enqueue(messageContentEdit, { message_id: id, content: `my offline edit of message ${id}` }, contentEditBaseOf(`message ${id} as it was`));
  const count = session.db.prepare("SELECT count(*) FROM outbox WHERE state = 'queued'").pluck().get();
  if (count !== pendingOn.length) throw new Error(`expected ${pendingOn.length} pending rows, found ${String(count)}`);
  // Every variant starts with an empty write-ahead log (the enqueues above filled this one's).
  session.db.pragma('wal_checkpoint(TRUNCATE)');
  // The session's own step for one event batch (private: the poller's only entry point).
  const apply: unknown = Reflect.get(session, 'apply');
  if (typeof apply !== 'function') throw new Error('AccountSession.apply is gone: update bench/engine-store.bench.ts');
  return { session, apply: (events, next) => apply.call(session, events, next) };
}

export function rawLoop(source: string, file: string): (writes: readonly RawWrite[][]) => void {
  copyFileSync(source, file);
  const db: LocalDb = openLocalDb(file);
  // The row writes alone: without the triggers that keep the unread and topic summaries (migration 0009).
  for (const t of db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('messages', 'server_unreads')").pluck().all()) db.exec(`DROP TRIGGER ${t}`);
  const cols = '(id, type, channel_id, topic, dm_key, sender_id, flags, has_link, has_image, has_attachment, has_reaction, json)';
  const vals = '(@id, @type, @channel_id, @topic, @dm_key, @sender_id, @flags, @has_link, @has_image, @has_attachment, @has_reaction, @json)';
  const insert = db.prepare(`INSERT INTO messages ${cols} VALUES ${vals}`);
  const insertFts = db.prepare('INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  const replace = db.prepare(`INSERT OR REPLACE INTO messages ${cols} VALUES ${vals}`);
  const replaceFts = db.prepare('INSERT OR REPLACE INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  const setFlag = db.prepare('UPDATE messages SET flags = flags | ? WHERE id = ?');
  const clearFlag = db.prepare('UPDATE messages SET flags = flags & ~? WHERE id = ?');
  const position = db.prepare("INSERT OR REPLACE INTO event_queue (id, queue_id, last_event_id, registered_at) VALUES (1, 'bench', ?, 0)");
  const tx = db.transaction((writes: readonly RawWrite[], last: number) => {
    for (const w of writes) {
      if (w.op === 'insert') {
        insert.run(w.row);
        insertFts.run(w.row.id, w.row.topic, w.text);
      } else if (w.op === 'rewrite') {
        replace.run(w.row);
        replaceFts.run(w.row.id, w.row.topic, w.text);
      } else {
        (w.add ? setFlag : clearFlag).run(w.bit, w.id);
      }
    }
    position.run(last);
  });
  return (batches) => batches.forEach((b, i) => tx(b, i));
}

async function benchEvents(storeSize: number, dir: string): Promise<Check[]> {
  const layout = layoutFor(storeSize);
  const source = join(dir, 'store.sqlite');
  buildStore(source, storeSize);
  const runs = 8;
  const warmup = 2;
  const rounds = runs + warmup;
  const plain = Array.from({ length: rounds }, (_, r) => streamFor(layout, r, []));
  const aimedAt = (n: number) => Array.from({ length: rounds }, (_, r) => streamFor(layout, r, layout.touched.slice(0, n)));
  const aimed100 = aimedAt(100);
  const aimed1000 = aimedAt(1000);

  const sessions: AccountSession[] = [];
  const engine = (name: string, sub: string, pendingOn: readonly number[], streams: readonly Stream[]): Variant => {
    const { session, apply } = sessionOver(source, join(dir, sub), pendingOn);
    sessions.push(session);
    let r = 0;
    let lastId = 0;
    return {
      name,
      itemsPerRun: PER_RUN,
      fn: () => {
        const { events } = streams[r++]!;
        for (let i = 0; i < events.length; i += PER_TX) {
          lastId += PER_TX;
          apply(events.slice(i, i + PER_TX), { queue_id: 'bench', last_event_id: lastId });
        }
      },
    };
  };
  const raw = (name: string, file: string, streams: readonly Stream[]): Variant => {
    const loop = rawLoop(source, join(dir, file));
    let r = 0;
    return { name, itemsPerRun: PER_RUN, fn: () => loop(streams[r++]!.raw) };
  };
  const variants = [
    raw('raw loop, same writes', 'raw-0.sqlite', plain),
    engine('event apply, 0 pending outbox rows', 'none', [], plain),
    engine('event apply, 100 pending rows on untouched messages', 'other-100', layout.untouched.slice(0, 100), plain),
    engine('event apply, 1,000 pending rows on untouched messages', 'other-1000', layout.untouched, plain),
    raw('raw loop, same writes + 100 re-applied', 'raw-100.sqlite', aimed100),
    engine('event apply, 100 pending rows on touched messages', 'touched-100', layout.touched.slice(0, 100), aimed100),
    raw('raw loop, same writes + 1,000 re-applied', 'raw-1000.sqlite', aimed1000),
    engine('event apply, 1,000 pending rows on touched messages', 'touched-1000', layout.touched, aimed1000),
  ];
  let s: Stats[];
  try {
    s = await interleave(variants, { runs, warmup });
  } finally {
    for (const session of sessions) await session.close();
  }
  const [raw0, none, other100, other1000, raw100, touched100, raw1000, touched1000] = s;
  const rate = (x: Stats | undefined) => `${Math.round((PER_RUN * 1000) / x!.medianMs).toLocaleString('en')} events/s`;
  const out = [
    check(SUITE, none!, raw0!, { max: 3 }),
    // Pending rows the batches never touch must cost (almost) nothing.
    check(SUITE, other100!, none!, { max: 1.2 }),
    check(SUITE, other1000!, none!, { max: 1.2 }),
    // Rows the batches touch are re-applied: the baseline writes them too.
    check(SUITE, touched100!, raw100!, { max: 3 }),
    check(SUITE, touched1000!, raw1000!, { max: 3 }),
  ];
  eventNotes.push(
    `event apply on a ${storeSize.toLocaleString('en')}-message store (file, WAL), ${PER_RUN} events per run in transactions of ${PER_TX}: ${rate(none)} with 0 pending rows, ${rate(other1000)} with 1,000 on untouched messages, ${rate(touched1000)} with 1,000 on touched messages (raw loop ${rate(raw0)})`,
  );
  return out;
}

/**
 * The step every event batch ends with, alone (as `AccountSession.apply` runs it: `retireEchoes`
 * then `reapplyTouched`), after a batch that touched 60 messages and the unread counts: with no
 * pending row; with 1,000 pending rows the batch did not touch (content edits of other messages;
 * sends, whose echoes are messages too): must cost the same, there is nothing to re-apply; with
 * 60 of 1,000 pending rows on touched messages against 60 of 60: must cost the same, the same 60
 * rows are re-applied. Many calls per run, in memory: the step costs microseconds.
 */
async function benchReapply(): Promise<Check[]> {
  const TOUCHED = 60;
  const CALLS = 50;
  const over = (edits: readonly number[], sends = 0) => {
    const session = AccountSession.open({ realmUrl: REALM, email: EMAIL, apiKey: 'unused', dataDir: ':memory:', watchClockJumps: false });
    setAccount(session.db, { realm_url: REALM, email: EMAIL, user_id: SELF });
    upsertMessages(session.db, Array.from({ length: 3 * MAX_PENDING }, (_, i) => exampleMessage(i + 1)), new ChangeCollector(), { personal: true });
    for (const id of edits) session.outbox.enqueue(messageContentEdit, { message_id: id, content: `my offline edit of message ${id}` }, contentEditBaseOf(`message ${id} as it was`));
    for (let i = 0; i < sends; i++) session.outbox.send({ type: 'channel', stream_id: 1 + (i % 6), topic: `topic ${i % 40}` }, `a message written offline, number ${i}`, 1_800_000_000);
    return session;
  };
  const touchedIds = Array.from({ length: TOUCHED }, (_, i) => 1 + i);
  const untouched = Array.from({ length: MAX_PENDING }, (_, i) => MAX_PENDING + 1 + i);
  const variant = (name: string, session: AccountSession): Variant => ({
    name,
    itemsPerRun: CALLS,
    fn: () => {
      for (let i = 0; i < CALLS; i++) {
        const changes = new ChangeCollector();
        for (const id of touchedIds) changes.messageUpdated(id);
        changes.touched('unread');
        session.db.transaction(() => {
          retireEchoes(session.db, [], changes);
          reapplyTouched(session.db, changes);
        })();
      }
    },
  });
  const sessions = [over([]), over(untouched), over([], MAX_PENDING), over(touchedIds), over([...touchedIds, ...untouched.slice(TOUCHED)])];
  let s: Stats[];
  try {
    s = await interleave(
      [
        variant('batch end step, 0 pending rows', sessions[0]!),
        variant('batch end step, 1,000 pending edits, none touched', sessions[1]!),
        variant('batch end step, 1,000 pending sends, none touched', sessions[2]!),
        variant('batch end step, 60 pending edits, all 60 touched', sessions[3]!),
        variant('batch end step, 1,000 pending edits, 60 touched', sessions[4]!),
      ],
      { runs: 30, warmup: 5 },
    );
  } finally {
    for (const session of sessions) await session.close();
  }
  const [none, edits, sends, sixty, sixtyOfThousand] = s;
  return [check(SUITE, edits!, none!, { max: 1.5 }), check(SUITE, sends!, none!, { max: 1.5 }), check(SUITE, sixtyOfThousand!, sixty!, { max: 1.5 })];
}

export async function benchEngineStore(opts: { messages: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
  try {
    const ingest = await benchIngest();
    const events = await benchEvents(opts.messages, dir);
    const reapply = await benchReapply();
    printChecks('Store: ingest of 1,000-message batches and event apply', [...ingest, ...events, ...reapply], [
      'event mix: 40% new messages, 40% flag changes (read/starred add/remove), 20% content edits, parsed beforehand; pending rows: update_message_content, queued with their local effect',
      'touched: the first 100 / 1,000 flag changes and edits of every run aim at messages with a pending row (a server edit overwrites the offline edit, which is written again)',
      ...eventNotes,
      'batch end step: retireEchoes + reapplyTouched (as the session runs them) after one batch that touched 60 messages and the unread counts, 50 calls per run (in memory)',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
