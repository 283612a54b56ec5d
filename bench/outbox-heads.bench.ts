/**
 * The outbox's runnable-heads queries (what the pusher asks after every completed row), with the
 * stored head mark of migration 0005, each against a baseline measured in the same run, in turns:
 *  - one conversation's sends queued behind a head waiting out a backoff (plus ten other
 *    entities' queued rows, and as many finished rows awaiting pruning): `runnableHeads(now, 64)`
 *    and `nextWakeAt()` with 5,000 rows behind the head against 5 behind (target: at most 1.5x:
 *    the call must not read the rows behind a head); and the query before the mark (schema 4:
 *    every queued row walked and probed for an older live row) with 5,000 behind (target: ours
 *    at least 10x faster);
 *  - many independent entities (the usual backlog after a while offline; one in ten waiting out
 *    a backoff, one in twenty with an edit deadline): 5,000 live rows against 500 (target: at
 *    most 1.5x, the walk stops at the limit), and the version-2 query, which grouped every live
 *    row (target: ours at least 5x faster).
 * Standalone: `npx tsx bench/outbox-heads.bench.ts`; part of `npm run bench` (`--only heads`).
 */
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../sync/db/migrations/index.js';
import { migrate, type LocalDb } from '../sync/db/open.js';
import { systemClock } from '../sync/base/seams.js';
import { KindRegistry } from '../sync/outbox/kinds.js';
import { RUNNABLE_HEADS_SQL } from '../sync/db/queries/outbox.js';
import { OutboxStore } from '../sync/outbox/store.js';
import { check, interleave, printChecks, type Stats } from './lib.js';

const SUITE = 'outbox-heads';

/** The version-2 query: the head of every entity by grouping all live rows. */
const V2_HEADS = `SELECT o.* FROM outbox o
  WHERE o.id IN (SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key)
    AND (o.state = 'queued' OR (o.state IN ('retry_wait', 'unknown') AND coalesce(o.next_attempt_at, 0) <= ?))
  ORDER BY o.deadline_at IS NULL, o.deadline_at, o.id LIMIT ?`;

/** The schema-4 query (migration 0003's indexes): every queued row walked, each probed for an older live row. */
const notBehind = (a: string) => `NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_key = ${a}.entity_key AND p.id < ${a}.id AND p.state NOT IN ('done', 'discarded'))`;
const V4_HEADS = `
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_queued_order
   WHERE o.state = 'queued' AND ${notBehind('o')}
  UNION ALL
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_waiting_due
   WHERE o.state IN ('retry_wait', 'unknown') AND coalesce(o.next_attempt_at, 0) <= ? AND ${notBehind('o')}
  ORDER BY no_deadline, deadline_at, id
  LIMIT ?`;

const NOW = 1_700_000_000_000;
const LIMIT = 64; // the pusher's AHEAD
const CALLS = 100; // per measured run: one call is microseconds

type Shape = 'independent' | 'one conversation';

function database(version: number, live: number, shape: Shape): LocalDb {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, version);
  const insert = db.prepare(
    `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, attempts, next_attempt_at, deadline_at, created_at, updated_at, history)
     VALUES (?, 1, ?, ?, 'null', ?, ?, ?, ?, ?, ?, '[]')`,
  );
  const args = (i: number) => JSON.stringify({ message_id: 1000 + i, content: `an edit made offline, number ${i}, with a few words of text` });
  db.transaction(() => {
    if (shape === 'one conversation') {
      // The head failed on the network and waits; every later send of the conversation queues behind it.
      insert.run('send_message', 'conversation:1:castle', args(0), 'retry_wait', 3, NOW + 60_000, null, NOW, NOW);
      for (let i = 1; i <= live; i++) insert.run('send_message', 'conversation:1:castle', args(i), 'queued', 0, null, null, NOW, NOW);
      for (let i = 0; i < 10; i++) insert.run('update_message_content', `message:${i}`, args(i), 'queued', 0, null, null, NOW, NOW);
    } else {
      for (let i = 0; i < live; i++) {
        // One in ten waits out a backoff (a minute away), one in twenty has an edit deadline.
        const waits = i % 10 === 0;
        insert.run('update_message_content', `message:${1000 + i}`, args(i), waits ? 'retry_wait' : 'queued', waits ? 2 : 0, waits ? NOW + 60_000 : null, i % 20 === 5 ? NOW + i * 1000 : null, NOW, NOW);
      }
    }
    // As many finished rows awaiting pruning: outside every partial index, but in the table.
    for (let i = 0; i < Math.max(live, 500); i++) insert.run('update_user_topic', `user_topic:1:done ${i}`, '{}', 'done', 1, null, null, NOW, NOW);
  })();
  return db;
}

const repeat = (name: string, fn: () => unknown) => ({
  name,
  itemsPerRun: CALLS,
  fn: () => {
    for (let i = 0; i < CALLS; i++) fn();
  },
});

const perCall = (s: Stats) => `${((s.medianMs * 1000) / CALLS).toFixed(1)} µs`;

export async function benchOutboxHeads(): Promise<void> {
  const notes: string[] = [];
  const opened: LocalDb[] = [];
  const db = (version: number, live: number, shape: Shape) => {
    const d = database(version, live, shape);
    opened.push(d);
    return d;
  };
  const store = (d: LocalDb) => new OutboxStore(d, new KindRegistry(), systemClock);

  const few = store(db(5, 5, 'one conversation'));
  const many = store(db(5, 5_000, 'one conversation'));
  const before = db(4, 5_000, 'one conversation').prepare(V4_HEADS);
  const ours = many.db.prepare(RUNNABLE_HEADS_SQL);
  const found = many.runnableHeads(NOW, LIMIT).length;
  if (found !== 10 || few.runnableHeads(NOW, LIMIT).length !== 10 || before.all(NOW, LIMIT).length !== 10) throw new Error('the heads queries disagree');
  const conv = await interleave(
    [
      repeat('runnableHeads(now, 64), 5 sends queued behind a waiting head', () => few.runnableHeads(NOW, LIMIT)),
      repeat('runnableHeads(now, 64), 5,000 sends queued behind a waiting head', () => many.runnableHeads(NOW, LIMIT)),
      repeat('nextWakeAt(), 5 queued behind', () => few.nextWakeAt()),
      repeat('nextWakeAt(), 5,000 queued behind', () => many.nextWakeAt()),
      repeat('schema-4 heads query (probe per queued row), 5,000 behind', () => before.all(NOW, LIMIT)),
      repeat('heads query with the head mark, 5,000 behind', () => ours.all(NOW, LIMIT)),
    ],
    { runs: 20, warmup: 3 },
  );
  const [few5, many5000, wake5, wake5000, v4, v5] = conv;
  notes.push(
    `one conversation, per call (median): runnableHeads ${perCall(few5!)} with 5 behind, ${perCall(many5000!)} with 5,000; schema-4 query ${perCall(v4!)} -> ${perCall(v5!)} with the mark; ${found} heads returned`,
  );

  const small = store(db(5, 500, 'independent'));
  const large = store(db(5, 5_000, 'independent'));
  const v2 = db(2, 5_000, 'independent').prepare(V2_HEADS);
  const largeSql = large.db.prepare(RUNNABLE_HEADS_SQL);
  if (v2.all(NOW, LIMIT).length !== LIMIT || large.runnableHeads(NOW, LIMIT).length !== LIMIT) throw new Error('the independent heads queries disagree');
  const ind = await interleave(
    [
      repeat('runnableHeads(now, 64), 500 independent live rows', () => small.runnableHeads(NOW, LIMIT)),
      repeat('runnableHeads(now, 64), 5,000 independent live rows', () => large.runnableHeads(NOW, LIMIT)),
      repeat('version-2 heads query (group every live row), 5,000 live', () => v2.all(NOW, LIMIT)),
      repeat('heads query with the head mark, 5,000 independent live rows', () => largeSql.all(NOW, LIMIT)),
    ],
    { runs: 20, warmup: 3 },
  );
  const [s500, s5000, q2, q5] = ind;
  notes.push(`independent, per call (median): runnableHeads ${perCall(s500!)} at 500 live rows, ${perCall(s5000!)} at 5,000; version-2 query ${perCall(q2!)} -> ${perCall(q5!)}`);
  for (const d of opened) d.close();

  printChecks(
    'Outbox: runnable heads (100 calls per run)',
    [
      check(SUITE, many5000!, few5!, { max: 1.5 }),
      check(SUITE, wake5000!, wake5!, { max: 1.5 }),
      check(SUITE, v5!, v4!, { min: 10 }),
      check(SUITE, s5000!, s500!, { max: 1.5 }),
      check(SUITE, q5!, q2!, { min: 5 }),
    ],
    notes,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchOutboxHeads();
