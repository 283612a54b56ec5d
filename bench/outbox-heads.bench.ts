/**
 * The outbox's runnable-heads queries (what the pusher asks after every completed row), before and
 * after migration 0003's partial indexes, at 500 and 5,000 live rows:
 *  - baseline: the version-2 queries on a version-2 database (they group every live row by entity);
 *  - after: `RUNNABLE_HEADS_SQL` / `NEXT_WAKE_SQL` on a version-3 database, and the whole
 *    `OutboxStore.runnableHeads(now, 64)` call the pusher makes (with JSON parsing of the rows).
 * Shapes: many independent entities (the usual backlog after a while offline, with done rows
 * awaiting pruning and some rows waiting out a backoff), and the worst case for the new query: one
 * conversation's sends queued behind a head in retry_wait, so the walk passes every non-head.
 * Standalone: `npx tsx bench/outbox-heads.bench.ts`; also part of `npm run bench` (outbox suite).
 */
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../sync/db/migrations/index.js';
import { migrate, type LocalDb } from '../sync/db/open.js';
import { systemClock } from '../sync/engine/seams.js';
import { KindRegistry } from '../sync/outbox/kinds.js';
import { NEXT_WAKE_SQL, OutboxStore, RUNNABLE_HEADS_SQL } from '../sync/outbox/store.js';
import { measure, printTable, type Stats } from './lib.js';

const V2_HEADS = `SELECT o.* FROM outbox o
  WHERE o.id IN (SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key)
    AND (o.state = 'queued' OR (o.state IN ('retry_wait', 'unknown') AND coalesce(o.next_attempt_at, 0) <= ?))
  ORDER BY o.deadline_at IS NULL, o.deadline_at, o.id LIMIT ?`;
const V2_WAKE = `SELECT MIN(coalesce(next_attempt_at, 0)) FROM outbox
  WHERE state IN ('retry_wait', 'unknown')
    AND id IN (SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key)`;

const NOW = 1_700_000_000_000;
const LIMIT = 64; // the pusher's AHEAD
const CALLS = 100; // per measured run: one call is tens of microseconds

type Shape = 'independent' | 'one conversation';

function database(version: 2 | 3, live: number, shape: Shape): LocalDb {
  const db = new Database(':memory:');
  migrate(db, MIGRATIONS, version);
  const insert = db.prepare(
    `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, attempts, next_attempt_at, deadline_at, created_at, updated_at, history)
     VALUES (?, 1, ?, ?, 'null', ?, ?, ?, ?, ?, ?, '[]')`,
  );
  db.transaction(() => {
    for (let i = 0; i < live; i++) {
      const args = JSON.stringify({ message_id: 1000 + i, content: `an edit made offline, number ${i}, with a few words of text` });
      if (shape === 'one conversation') {
        // The head failed on the network and waits; every later send queues behind it.
        insert.run('message_send', 'conversation:1:castle', args, i === 0 ? 'retry_wait' : 'queued', i === 0 ? 3 : 0, i === 0 ? NOW + 60_000 : null, null, NOW, NOW);
        continue;
      }
      // One in ten waits out a backoff (a minute away), one in twenty has an edit deadline.
      const waits = i % 10 === 0;
      insert.run('message_content_edit', `message:${1000 + i}`, args, waits ? 'retry_wait' : 'queued', waits ? 2 : 0, waits ? NOW + 60_000 : null, i % 20 === 5 ? NOW + i * 1000 : null, NOW, NOW);
    }
    // As many finished rows awaiting pruning: outside every partial index, but in the table.
    for (let i = 0; i < live; i++) insert.run('user_topic_set', `user_topic:1:done ${i}`, '{}', 'done', 1, null, null, NOW, NOW);
  })();
  return db;
}

async function one(live: number, shape: Shape): Promise<void> {
  const before = database(2, live, shape);
  const after = database(3, live, shape);
  const v2Heads = before.prepare(V2_HEADS);
  const v2Wake = before.prepare(V2_WAKE).pluck();
  const v3Heads = after.prepare(RUNNABLE_HEADS_SQL);
  const v3Wake = after.prepare(NEXT_WAKE_SQL).pluck();
  const store = new OutboxStore(after, new KindRegistry(), systemClock);
  const found = v3Heads.all(NOW, LIMIT).length;
  if (found !== v2Heads.all(NOW, LIMIT).length) throw new Error('the two queries disagree');
  const times = (fn: () => unknown) => () => {
    for (let i = 0; i < CALLS; i++) fn();
  };
  const opts = { runs: 30, warmup: 5, itemsPerRun: CALLS };
  const rows: Stats[] = [
    await measure('v2 heads query (group every live row), LIMIT 64', times(() => v2Heads.all(NOW, LIMIT)), opts),
    await measure('v3 heads query (partial indexes), LIMIT 64', times(() => v3Heads.all(NOW, LIMIT)), opts),
    await measure('v3 OutboxStore.runnableHeads(now, 64), rows parsed', times(() => store.runnableHeads(NOW, LIMIT)), opts),
    await measure('v2 next wake-up query', times(() => v2Wake.get()), opts),
    await measure('v3 next wake-up query', times(() => v3Wake.get()), opts),
  ];
  before.close();
  after.close();
  const us = (s: Stats) => `${((s.medianMs * 1000) / CALLS).toFixed(1)} µs`;
  printTable(`Outbox: runnable heads, ${live.toLocaleString('en')} live rows (+ as many done), ${shape}`, rows, rows[0]!.name, [
    `per call (median): heads ${us(rows[0]!)} -> ${us(rows[1]!)} (store call ${us(rows[2]!)}); next wake-up ${us(rows[3]!)} -> ${us(rows[4]!)}; ${found} heads returned`,
  ]);
}

export async function benchOutboxHeads(): Promise<void> {
  for (const shape of ['independent', 'one conversation'] as const) {
    for (const live of [500, 5_000]) await one(live, shape);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchOutboxHeads();
