/**
 * Several organisations at once (docs/sync-design.md "Several organisations"): what each signed-in
 * organisation costs while idle. Three reference servers in this process, one per organisation;
 * the engine service in a child process each time (bench/orgs-child.ts), signed in to one of them,
 * then to all three, every session live, then idle for a fixed window. Memory added by the
 * organisations (after a GC) and CPU time over the idle window, 3 against 1 in the same run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server/index.js';
import { checkValue, printChecks, type Check } from './lib.js';

const SUITE = 'orgs';
/** The idle window, measured in five parts (the median part decides: bench/orgs-child.ts). */
const IDLE_MS = 20_000;

interface Run {
  readonly before: { rss: number; heap: number };
  readonly after: { rss: number; heap: number };
  /** CPU time in each part of the idle window. */
  readonly idleCpuMs: readonly number[];
}

function engineWith(realms: readonly string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'zulip-bench-orgs-'));
  const child = join(import.meta.dirname, 'orgs-child.ts');
  return new Promise<Run>((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', child, dir, String(IDLE_MS), ...realms], { cwd: join(import.meta.dirname, '..'), timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`orgs child: ${error.message} ${stderr.slice(0, 500)}`));
      resolve(JSON.parse(stdout.trim()) as Run);
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export async function benchOrgs(): Promise<void> {
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < 3; i++) servers.push(await startServer({ demo: true, config: { rateLimit: false, realmName: `Org ${i + 1}` }, schedulerIntervalMs: 0 }));
    const urls = servers.map((s) => s.url);
    const one = await engineWith(urls.slice(0, 1));
    const three = await engineWith(urls);
    const added = (r: Run, k: 'rss' | 'heap') => Math.max(1, r.after[k] - r.before[k]);
    const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const perMinute = (r: Run) => (median(r.idleCpuMs) * 60_000 * r.idleCpuMs.length) / IDLE_MS;
    const checks: Check[] = [
      checkValue(SUITE, 'RSS added by 3 idle organisations', { n: added(three, 'rss'), text: mb(added(three, 'rss')) }, { name: 'added by 1', n: added(one, 'rss'), text: mb(added(one, 'rss')) }, { max: 3 }),
      checkValue(SUITE, 'JS heap added by 3 idle organisations', { n: added(three, 'heap'), text: mb(added(three, 'heap')) }, { name: 'added by 1', n: added(one, 'heap'), text: mb(added(one, 'heap')) }, { max: 3 }),
      checkValue(SUITE, 'CPU per idle minute, 3 organisations', { n: perMinute(three), text: `${perMinute(three).toFixed(0)} ms` }, { name: '1 organisation', n: perMinute(one), text: `${perMinute(one).toFixed(0)} ms` }, { max: 3 }),
    ];
    printChecks('Several organisations: 3 idle against 1 (engine in its own process)', checks, [
      `each organisation on its own reference server (demo realm, in the bench process); the engine service in a child with --expose-gc, memory after a GC`,
      `CPU: user + system time of the engine process in a ${IDLE_MS / 1000} s idle window (every session live, long-polling), in ${one.idleCpuMs.length} parts; the median part scaled to a minute (parts, ms: 1 organisation ${one.idleCpuMs.map((x) => x.toFixed(1)).join(' ')}; 3 organisations ${three.idleCpuMs.map((x) => x.toFixed(1)).join(' ')})`,
      `absolute: 1 organisation ${mb(one.after.rss)} RSS, ${mb(one.after.heap)} heap; 3 organisations ${mb(three.after.rss)} RSS, ${mb(three.after.heap)} heap`,
    ]);
  } finally {
    for (const s of servers) await s.close();
  }
}
