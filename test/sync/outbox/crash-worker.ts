/**
 * Crash trials' child process (crash-trials.test.ts kills it with SIGKILL at random moments).
 *
 * Usage: node crash-worker.mjs <config.json>. It opens the outbox database FILE, enqueues whatever
 * of the seeded workload it has not enqueued yet (one transaction per intent, which also advances a
 * durable cursor and records snippet temporary ids, so a kill never half-enqueues or repeats an
 * intent), drains through the real pusher on the real clock, and prints progress lines:
 *   `ready <intents already enqueued>`, `burst <n>`, and finally `done <row states as JSON>`.
 * A restart after a kill is just another run: the pusher's start turns rows left `sending` into
 * `unknown`, and they are verified by reading before anything is resent.
 */
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiConnection } from '../../../sync/api/index.js';
import { openLocalDb } from '../../../sync/db/open.js';
import { seededRandom, silentEngineLogger, systemClock } from '../../../sync/base/seams.js';
import { KindRegistry } from '../../../sync/outbox/kinds.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { OutboxStore } from '../../../sync/outbox/store.js';
import { enqueueIntent, generateWorkload, type Handles, type WorkloadFixtures, type WorkloadOptions } from './workload.js';

export interface CrashWorkerConfig {
  readonly dbPath: string;
  readonly realmUrl: string;
  readonly email: string;
  readonly apiKey: string;
  readonly fixtures: WorkloadFixtures;
  readonly workload: WorkloadOptions;
}

async function main(configPath: string): Promise<void> {
  const cfg: CrashWorkerConfig = JSON.parse(readFileSync(configPath, 'utf8'));
  const db = openLocalDb(cfg.dbPath);
  // Test-only bookkeeping, in the same file as the outbox so it commits with each intent.
  db.exec(`
    CREATE TABLE IF NOT EXISTS crash_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), enqueued INTEGER NOT NULL);
    INSERT OR IGNORE INTO crash_cursor (id, enqueued) VALUES (1, 0);
    CREATE TABLE IF NOT EXISTS crash_handles (handle INTEGER PRIMARY KEY, tmp_id TEXT NOT NULL);
  `);
  const store = new OutboxStore(db, new KindRegistry(ALL_KINDS), systemClock);
  const conn = new ApiConnection({ realmUrl: cfg.realmUrl, email: cfg.email, apiKey: cfg.apiKey, logger: { warn: () => undefined }, timeoutMs: 5_000 });
  // Short backoff: nothing fails here on purpose except the process itself.
  const pusher = new OutboxPusher({ store, conn, seams: { logger: silentEngineLogger }, concurrency: 4, backoff: { firstBoundMs: 20, capMs: 200 } });
  const handles: Handles = {
    get: (h) => {
      const v: unknown = db.prepare('SELECT tmp_id FROM crash_handles WHERE handle = ?').pluck().get(h);
      return typeof v === 'string' ? v : undefined;
    },
    set: (h, tmp) => void db.prepare('INSERT INTO crash_handles (handle, tmp_id) VALUES (?, ?)').run(h, tmp),
  };
  const cursor = (): number => Number(db.prepare('SELECT enqueued FROM crash_cursor').pluck().get());
  const settle = async () => {
    for (;;) {
      await pusher.idle();
      const at = store.nextWakeAt();
      if (at === null) return;
      await sleep(Math.max(1, at - Date.now()));
    }
  };

  const w = generateWorkload(cfg.fixtures, cfg.workload);
  const pause = seededRandom(cfg.workload.seed ^ 0x5eed);
  let index = 0;
  const done = cursor();
  process.stdout.write(`ready ${done}\n`);
  pusher.start();
  for (const [b, burst] of w.bursts.entries()) {
    let enqueued = false;
    for (const intent of burst.intents) {
      if (index++ < done) continue;
      db.transaction(() => {
        enqueueIntent(store, handles, intent, Date.now(), cfg.fixtures);
        db.prepare('UPDATE crash_cursor SET enqueued = enqueued + 1').run();
      })();
      enqueued = true;
    }
    if (!enqueued) continue;
    process.stdout.write(`burst ${b}\n`);
    pusher.kick();
    if (burst.pause === 'some') await sleep(Math.floor(pause() * 15));
    else if (burst.pause === 'full') await settle();
  }
  await settle();
  await pusher.stop();
  const states: unknown = db.prepare('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state').all();
  process.stdout.write(`done ${JSON.stringify(states)}\n`);
  await conn.close();
  db.close();
}

const configPath = process.argv[2];
if (configPath === undefined) {
  process.stderr.write('usage: crash-worker <config.json>\n');
  process.exit(2);
}
main(configPath).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`crash worker failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
