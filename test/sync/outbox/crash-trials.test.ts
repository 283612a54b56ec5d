/**
 * Crash safety: the outbox drained by a child process (crash-worker.ts) that is killed with SIGKILL
 * at seeded random moments, one to three times per trial, then restarted and let finish. After
 * each trial the same checks as the fault workload hold: every intent landed exactly once, in
 * order, nothing stuck, the server holds the intended state. Two messages a (kill) trial are sent
 * with one or two small files each (their uploads queued just before), so kills land while files
 * upload: every file once, every message once with its own links, no copy left behind.
 *
 * One reference server (real clock) and one pass-through proxy serve every trial; each trial has a
 * fresh database file and a fresh set of entities (its own prefix). The worker is bundled once with
 * esbuild so a restart costs a Node start, not a TypeScript compile. `CRASH_TRIALS` sets the number
 * of trials (default 30, to keep CI short; `npm run crash-trials -- --trials 500` runs more), `CRASH_SEED` the seed.
 *
 * The disk-fault trials (docs/sync-design.md "A full disk") do the same with the worker's writes
 * refused at seeded random runs besides the kills: `SQLITE_FULL` or `SQLITE_IOERR_WRITE`, at most
 * a budget per run. The same checks hold (nothing lost, nothing duplicated, nothing stuck), each
 * run finishes in bounded time, and the engine logs a bounded number of lines (once per change of
 * the disk's state, never per attempt). `CRASH_FAULT_TRIALS` sets their number (default 12).
 */
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { seededRandom, systemClock } from '../../../sync/base/seams.js';
import { KindRegistry } from '../../../sync/outbox/kinds.js';
import { OutboxStore, type OutboxRow } from '../../../sync/outbox/store.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { realm } from '../../server/edit-helpers.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import type { CrashWorkerConfig } from './crash-worker.js';
import { checkServer, installAudit, stuckRows } from './workload-check.js';
import { generateWorkload, type FixtureMessage, type WorkloadFixtures, type WorkloadOptions } from './workload.js';

const TRIALS = Number(process.env.CRASH_TRIALS ?? 30);
const FAULT_TRIALS = Number(process.env.CRASH_FAULT_TRIALS ?? 12);
/** Writes refused per worker run at most, and the chance of each write being refused. */
const FAULT_BUDGET = 40;
const FAULT_RATE = 0.05;
const SEED = Number(process.env.CRASH_SEED ?? 7_331);
const EMAIL = 'iago@example.com';

let t: TestServer;
let proxy: FaultProxy;
let dir: string;
let bundle: string;
/** Workers still running: killed in afterAll if a trial failed or timed out while one was up. */
const live = new Set<ChildProcess>();
const stats = { kills: 0, trialsWithRecovery: 0, verifiedAfterCrash: 0, uploadsVerifiedAfterCrash: 0, requests: 0, ms: [] as number[], landedKinds: new Set<string>() };
const faultStats = { trials: 0, runs: 0, kills: 0, full: 0, io: 0, logLines: 0, intents: 0, problems: 0, ms: [] as number[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-crash-'));
  // Inside node_modules so the bundle resolves better-sqlite3 (native, kept external) from there.
  const cache = join(import.meta.dirname, '../../../node_modules/.cache/outbox-crash');
  mkdirSync(cache, { recursive: true });
  bundle = join(cache, `worker-${process.pid}.mjs`);
  await build({
    entryPoints: [join(import.meta.dirname, 'crash-worker.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // Bundled CommonJS dependencies (undici) call require() for Node's builtins.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  // A real clock: the worker's clock is the machine's, and snippet verify compares the two.
  t = await startTestServer({ clock: systemClock });
  realm(t, { message_content_edit_limit_seconds: null });
  installAudit(t);
  proxy = await FaultProxy.start(t.url);
  // Besides the kills: answers lost or mangled after the server applied the request (a gateway's
  // 502/504 page, a truncated body, a dropped answer), which must be verified by reading too.
  proxy.setPlan(SEED, { gateway: 0.03, truncate: 0.02, drop: 0.02 });
});
afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  await proxy?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (bundle) rmSync(bundle, { force: true });
  const ms = [...stats.ms].sort((a, b) => a - b);
  if (faultStats.trials > 0) {
    const fms = [...faultStats.ms].sort((a, b) => a - b);
    console.log(
      `disk-fault trials: ${faultStats.trials} trials, ${faultStats.runs} worker runs, ${faultStats.kills} kills, ${faultStats.full + faultStats.io} writes refused ` +
        `(${faultStats.full} SQLITE_FULL, ${faultStats.io} SQLITE_IOERR_WRITE), ${faultStats.intents} intents, ${faultStats.problems} lost or duplicated, ` +
        `${faultStats.logLines} engine log lines; per trial median ${fms[Math.floor(fms.length / 2)]} ms, max ${fms.at(-1)} ms`,
    );
  }
  console.log(
    `crash trials: ${ms.length} trials, ${stats.kills} kills, ${stats.trialsWithRecovery} trials with rows left in flight by a kill, ${stats.verifiedAfterCrash} such rows verified by reading (${stats.uploadsVerifiedAfterCrash} uploads or sends naming files), ` +
      `${stats.requests} requests; per trial median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms.at(-1)} ms`,
  );
});

interface Worker {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  out: string;
}

function startWorker(configPath: string): Worker {
  const child = spawn(process.execPath, [bundle, configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const w: Worker = { child, out: '', exited };
  child.stdout?.on('data', (d: Buffer) => (w.out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (w.out += d.toString()));
  return w;
}

/** Resolves when `pred` holds or the worker exits (true: it exited first). */
async function until(w: Worker, pred: () => boolean): Promise<boolean> {
  let exited = false;
  void w.exited.then(() => (exited = true));
  while (!pred() && !exited) await new Promise((r) => setTimeout(r, 1));
  return exited;
}

async function fixtures(prefix: string): Promise<WorkloadFixtures> {
  // Sent first: no message is newer than the workload's fixtures (the check counts new ones).
  const widget = async (content: string) => Number((await t.as('iago').post('/messages', { type: 'channel', to: 'Verona', topic: `${prefix} widgets`, content })).json.id);
  const widgets = { poll: await widget('/poll Lunch?\nPizza\nSoup\nSalad'), todo: await widget('/todo Chores\nDishes\nBins') };
  const messages: FixtureMessage[] = [];
  const doomed: FixtureMessage[] = [];
  for (let i = 0; i < 7; i++) {
    const m = i < 5 ? { content: `${prefix} message ${i} original`, topic: `${prefix} topic ${i}` } : { content: `${prefix} doomed ${i} original`, topic: `${prefix} doomed` };
    // Through the API, so the message is dated by the server's (real) clock.
    const r = await t.as('iago').post('/messages', { type: 'channel', to: 'Verona', topic: m.topic, content: m.content });
    (i < 5 ? messages : doomed).push({ ...m, id: Number(r.json.id) });
  }
  return { prefix, messages, doomed, widgets, streamId: channelId(t, 'Verona'), scheduleAt: Math.floor(Date.now() / 1000) + 365 * 86_400 };
}

function readRows(dbPath: string): OutboxRow[] {
  const db = openLocalDb(dbPath);
  try {
    return new OutboxStore(db, new KindRegistry(ALL_KINDS), systemClock).all();
  } finally {
    db.close();
  }
}

const historyHas = (r: OutboxRow, event: string) => r.history.some((h) => typeof h === 'object' && h !== null && Reflect.get(h, 'event') === event);

/** One trial: a workload drained by workers killed one to three times, optionally with disk faults. */
async function runTrial(trial: number, faults: boolean): Promise<void> {
  const t0 = Date.now();
  const seed = faults ? SEED * 31 + 17 : SEED;
  const r = seededRandom(seed * 1_000 + trial);
  const fx = await fixtures(`${faults ? 'f' : 'c'}${SEED}x${trial}x`);
  const opts: WorkloadOptions = { seed: seed + trial, intents: 60, snippets: 10, topics: 8, views: 4, maxBurst: 12, moves: true, uploads: faults ? 0 : 2 };
  const dbPath = join(dir, `${faults ? 'fault' : 'trial'}-${trial}.db`);
  const cfg: CrashWorkerConfig = { dbPath, realmUrl: proxy.url, email: EMAIL, apiKey: t.server.apiKey(EMAIL), fixtures: fx, workload: opts };
  const configPath = join(dir, `${faults ? 'fault' : 'trial'}-${trial}.json`);
  // Each worker run refuses writes at its own seeded moments.
  const writeConfig = (run: number) => writeFileSync(configPath, JSON.stringify(faults ? { ...cfg, faults: { seed: seed * 7_919 + trial * 101 + run, rate: FAULT_RATE, budget: FAULT_BUDGET } } : cfg));
  const logStart = proxy.log.length;
  let runs = 0;
  /** Count a worker run's refused writes (killed runs too) and check its log was bounded. */
  const counted = (w: Worker) => {
    const full = (w.out.match(/^refused SQLITE_FULL$/gm) ?? []).length;
    const io = (w.out.match(/^refused SQLITE_IOERR_WRITE$/gm) ?? []).length;
    faultStats.full += full;
    faultStats.io += io;
    expect(full + io).toBeLessThanOrEqual(FAULT_BUDGET);
    const m = /faults (\d+) (\d+) log (\d+)/.exec(w.out);
    if (!m) return;
    faultStats.logLines += Number(m[3]);
    // Bounded: the engine says each change of the disk's state once (refused, works again).
    expect(Number(m[3])).toBeLessThanOrEqual(2 * (full + io) + 5);
  };

  const kills = 1 + Math.floor(r() * 3);
  for (let k = 0; k < kills; k++) {
    writeConfig(runs++);
    const w = startWorker(configPath);
    const seen = proxy.log.length;
    // Half the kills land after a number of requests reached the server, half after a delay.
    const afterRequests = 1 + Math.floor(r() * 25);
    const afterMs = Math.floor(r() * 300);
    const byRequests = r() < 0.5;
    const ready = Date.now();
    const finished = await until(w, () => (byRequests ? proxy.log.length - seen >= afterRequests : Date.now() - ready >= afterMs));
    if (finished) {
      counted(w);
      break;
    }
    w.child.kill('SIGKILL');
    await w.exited;
    if (faults) counted(w);
    if (faults) faultStats.kills++;
    else stats.kills++;
  }
  writeConfig(runs++);
  const last = startWorker(configPath);
  // A worker that cannot finish (a row that never settles) is killed and the trial fails.
  const timer = setTimeout(() => last.child.kill('SIGKILL'), 30_000);
  const code = await last.exited;
  clearTimeout(timer);
  expect(code, last.out).toBe(0);
  expect(last.out).toMatch(/^done /m);
  counted(last);

  const rows = readRows(dbPath);
  const recovered = rows.filter((row) => historyHas(row, 'crash_recovered'));
  if (!faults) {
    stats.requests += proxy.log.length - logStart;
    if (recovered.length > 0) stats.trialsWithRecovery++;
    stats.verifiedAfterCrash += recovered.length;
    stats.uploadsVerifiedAfterCrash += recovered.filter((row) => row.kind === 'upload_file' || (row.kind === 'send_message' && Array.isArray(Reflect.get(Object(row.args), 'uploads')))).length;
    for (const row of rows) if (row.state === 'done') stats.landedKinds.add(row.kind);
  }
  // The last run's lines (with CRASH_WORKER_LOG=1 also the engine's log) say what went on.
  expect(stuckRows(rows), last.out.slice(-3000)).toEqual([]);
  // No copy left behind: every upload ended, so the account's outbox files are empty.
  const copies = `${dbPath}.outbox-files`;
  expect(existsSync(copies) ? readdirSync(copies) : []).toEqual([]);
  const problems = await checkServer(t, 'iago', fx, generateWorkload(fx, opts).intended, rows);
  if (faults) {
    faultStats.trials++;
    faultStats.runs += runs;
    faultStats.intents += generateWorkload(fx, opts).bursts.reduce((n, b) => n + b.intents.length, 0);
    faultStats.problems += problems.length;
    faultStats.ms.push(Date.now() - t0);
  }
  expect(problems).toEqual([]);
  if (!faults) stats.ms.push(Date.now() - t0);
}

describe('outbox crash trials (SIGKILL while draining)', () => {
  for (let trial = 0; trial < TRIALS; trial++) {
    it(`trial ${trial}`, { timeout: 60_000 }, () => runTrial(trial, false));
  }

  // A worker may finish before its kill comes; over many trials most kills must still land, and
  // some must leave rows in flight (the case crash recovery exists for).
  it.runIf(TRIALS >= 10)('the kills landed while draining, some with rows in flight', () => {
    expect(stats.kills).toBeGreaterThanOrEqual(TRIALS / 2);
    expect(stats.trialsWithRecovery).toBeGreaterThan(0);
    // Every kind the workload generates took part somewhere (a kind never drained proves nothing).
    for (const k of ['create_saved_snippet', 'update_message_content', 'update_message_move', 'update_user_topic', 'update_settings', 'add_navigation_view', 'update_message_flags', 'add_or_remove_reaction', 'create_scheduled_message', 'update_subscription_settings', 'delete_message', 'upload_file', 'send_message']) expect(stats.landedKinds, k).toContain(k);
  });
});

describe('outbox crash trials with disk faults (SQLITE_FULL / SQLITE_IOERR at random writes, and SIGKILL)', () => {
  for (let trial = 0; trial < FAULT_TRIALS; trial++) {
    it(`fault trial ${trial}`, { timeout: 60_000 }, () => runTrial(trial, true));
  }

  // The faults must really have been met, of both kinds.
  it.runIf(FAULT_TRIALS >= 5)('writes were refused, of both kinds', () => {
    expect(faultStats.full).toBeGreaterThan(0);
    expect(faultStats.io).toBeGreaterThan(0);
  });
});
