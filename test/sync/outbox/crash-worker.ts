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
 *
 * With `faults`, the database's writes are refused at seeded random runs (`SQLITE_FULL` or
 * `SQLITE_IOERR_WRITE`, up to `budget` a run; test/support/disk-faults.ts): an intent whose enqueue
 * is refused is tried again (the user trying again), the pusher waits for the disk, and the final
 * line also says how many faults were injected and how many lines the engine logged:
 *   `refused <code>` for each write refused, and `done <row states as JSON> faults <full> <io> log <lines>`;
 * with CRASH_WORKER_LOG=1 in its environment the engine's log lines go to stderr too.
 *
 * Uploads' copies are kept beside the database (`<db>.outbox-files`, as the session keeps them);
 * each run starts as the session does, removing the copies no live upload row names (staged by an
 * intent whose enqueue a kill or a refused write undid, or whose row ended), and ends so too.
 */
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiConnection } from '../../../sync/api/index.js';
import { openLocalDb } from '../../../sync/db/open.js';
import { defaultSeams, seededRandom, silentEngineLogger, systemClock } from '../../../sync/base/seams.js';
import { KindRegistry } from '../../../sync/outbox/kinds.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { OutboxStore } from '../../../sync/outbox/store.js';
import { StorageHealth, storageFault } from '../../../sync/db/storage.js';
import { injectDiskFaults, type DiskFaults } from '../../support/disk-faults.js';
import { OutboxFiles } from '../../../sync/uploads/outbox-files.js';
import { landedUploadUrls, liveUploadFileIds } from '../../../sync/db/queries/outbox-uploads.js';
import { UPLOAD_FILE_KIND, uploadOf } from '../../../sync/outbox/mutations/upload-file.js';
import { NO_CONTEXT, type KindContext } from '../../../sync/outbox/kinds.js';
import { enqueueIntent, generateWorkload, type Handles, type WorkloadFixtures, type WorkloadOptions } from './workload.js';

export interface CrashWorkerConfig {
  readonly dbPath: string;
  readonly realmUrl: string;
  readonly email: string;
  readonly apiKey: string;
  readonly fixtures: WorkloadFixtures;
  readonly workload: WorkloadOptions;
  /** Refuse writes at random: each run of a write statement with probability `rate`, at most `budget` times. */
  readonly faults?: { readonly seed: number; readonly rate: number; readonly budget: number };
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
  let faults: DiskFaults | undefined;
  if (cfg.faults) {
    const { rate, budget } = cfg.faults;
    const pick = seededRandom(cfg.faults.seed);
    let left = budget;
    faults = injectDiskFaults(db, () => {
      if (left <= 0 || pick() >= rate) return undefined;
      left--;
      const code = pick() < 0.5 ? 'SQLITE_FULL' : 'SQLITE_IOERR_WRITE';
      // Said at once: a run may be killed before its last line.
      process.stdout.write(`refused ${code}\n`);
      return code;
    });
  }
  let logLines = 0;
  const say = (level: string) => (m: string, d?: unknown) => {
    logLines++;
    if (process.env['CRASH_WORKER_LOG']) process.stderr.write(`${level} ${m} ${JSON.stringify(d ?? {})}\n`);
  };
  const logger = { info: say('info'), warn: say('warn'), error: say('error') };
  const seams = { ...defaultSeams, logger: cfg.faults ? logger : silentEngineLogger };
  const store = new OutboxStore(db, new KindRegistry(ALL_KINDS), systemClock);
  const conn = new ApiConnection({ realmUrl: cfg.realmUrl, email: cfg.email, apiKey: cfg.apiKey, logger: { warn: () => undefined }, timeoutMs: 5_000 });
  // Short backoffs: nothing fails here on purpose except the process itself and the disk.
  const storage = new StorageHealth({ seams, retry: { firstMs: 10, capMs: 100 } });
  const files = new OutboxFiles(`${cfg.dbPath}.outbox-files`);
  const sweep = () => files.sweep(new Set(liveUploadFileIds(db, UPLOAD_FILE_KIND)));
  sweep();
  const context: KindContext = {
    ...NO_CONTEXT,
    uploads: {
      read: (id) => files.read(id),
      urlOf: (tmp) => store.resolvedTempId(tmp),
      discarded: (tmp) => uploadOf(db, tmp)?.state === 'discarded',
      landedUrls: () => landedUploadUrls(db),
      keep: () => undefined,
    },
  };
  const pusher = new OutboxPusher({ store, conn, seams, storage, context, concurrency: 4, backoff: { firstBoundMs: 20, capMs: 200 } });
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
      if (pusher.waitingForDisk) {
        await sleep(10);
        continue;
      }
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
      // A refused write leaves nothing behind: the user tries again a moment later.
      for (;;) {
        try {
          storage.write(() =>
            db.transaction(() => {
              enqueueIntent(store, handles, intent, Date.now(), cfg.fixtures, files);
              db.prepare('UPDATE crash_cursor SET enqueued = enqueued + 1').run();
            })(),
          );
          break;
        } catch (e) {
          if (storageFault(e) === undefined) throw e;
          await sleep(5);
        }
      }
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
  sweep();
  storage.close();
  faults?.off();
  const states: unknown = db.prepare('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state').all();
  const injected = faults ? ` faults ${faults.injected.SQLITE_FULL} ${faults.injected.SQLITE_IOERR_WRITE} log ${logLines}` : '';
  process.stdout.write(`done ${JSON.stringify(states)}${injected}\n`);
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
