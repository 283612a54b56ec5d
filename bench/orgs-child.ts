/**
 * The engine service with N organisations open and idle, in its own process (bench/orgs.bench.ts
 * runs it with `--expose-gc`): the service made (no account), then signed in to each realm URL
 * given and every session live, then left idle for `idleMs`. Prints one JSON line: RSS and JS heap
 * before signing in and after (bytes, after a GC each), and the process's CPU time (user + system,
 * ms) in each fifth of the idle window.
 */
import { silentEngineLogger } from '../sync/base/seams.js';
import { EngineService, MemorySecretStore } from '../sync/service/index.js';
import { memorySample as sample } from './lib.js';

const [dataDir, idleText, ...realms] = process.argv.slice(2);
const IDLE_WINDOWS = 5;
const svc = new EngineService({ dataDir: dataDir!, secrets: new MemorySecretStore(), seams: { logger: silentEngineLogger } });
const client = svc.connect(() => undefined);
const before = sample();
const ids: string[] = [];
for (const realm of realms) {
  const r = await client.invoke('signIn', { realm_url: realm, email: 'hamlet@example.com', credentials: { password: 'sandbox' } });
  if (!r.ok) throw new Error(`sign-in to ${realm}: ${r.error.message}`);
  ids.push((r.value as { id: string }).id);
}
const deadline = Date.now() + 60_000;
while (!ids.every((id) => svc.sessionOf(id)?.status.state === 'live')) {
  if (Date.now() > deadline) throw new Error('the organisations did not all come live');
  await new Promise((r) => setTimeout(r, 50));
}
// Let the first sync's follow-ups (backfill, raw texts, emoji) settle before measuring idle.
await new Promise((r) => setTimeout(r, 2_000));
const after = sample();
// The idle window in IDLE_WINDOWS equal parts, each's CPU time reported: a few milliseconds a window,
// where one follow-up or collection landing in a single window decided the figure.
const idleCpuMs: number[] = [];
for (let w = 0; w < IDLE_WINDOWS; w++) {
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, Number(idleText) / IDLE_WINDOWS));
  const cpu = process.cpuUsage(cpu0);
  idleCpuMs.push((cpu.user + cpu.system) / 1000);
}
client.close();
await svc.close();
process.stdout.write(`${JSON.stringify({ before, after, idleCpuMs })}\n`);
