/**
 * One cold start, in its own process (bench/cold-start.bench.ts bundles this file and runs it):
 * what the app's main process does from start to the first narrow answered, without Electron:
 * the engine service over `dataDir`, the account open last time restored (its database opened,
 * the session started: the poller and the outbox, offline here), then the renderer's first
 * requests: the accounts, the channels for the sidebar, and a 50-message channel page.
 * Prints one JSON line of milestones (ms since the process started) when the page is answered,
 * then closes the service and exits. (The baseline,
 * a process that only opens the database and runs the bare SQL, is BARE_CHILD in cold-start.bench.ts.)
 */
import { performance } from 'node:perf_hooks';
import { silentEngineLogger } from '../sync/base/seams.js';
import { EngineService, MemorySecretStore } from '../sync/service/index.js';

const [dataDir, accountId, channelId] = process.argv.slice(2);
const at: Record<string, number> = { loaded: performance.now() };

const secrets = new MemorySecretStore('encrypted');
secrets.set(accountId!, 'bench-key');
const service = new EngineService({ dataDir: dataDir!, secrets, seams: { logger: silentEngineLogger } });
await service.restore();
at['restored'] = performance.now();
const client = service.connect(() => undefined);
for (const [name, payload] of [['accounts', {}], ['channels', {}]] as const) {
  const r = await client.invoke(name, payload);
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  at[name] = performance.now();
}
const page = await client.invoke('openNarrow', { narrow: [{ operator: 'channel', operand: Number(channelId) }], anchor: 'newest', before: 50, after: 0 });
at['answered'] = performance.now();
if (!page.ok) throw new Error(`openNarrow: ${JSON.stringify(page.error)}`);
const shown = (page.value as { snapshot: { messages: unknown[] } }).snapshot.messages.length;
if (shown !== 50) throw new Error(`first page: ${shown} messages`);
// The line the parent times the start by: written once the page is answered, before the service
// closes (closing is not part of the start; the baseline's close is a file handle's).
process.stdout.write(`${JSON.stringify(at)}\n`);
client.close();
await service.close();
