/**
 * `npm run bench`: every benchmark suite; each prints its checks (median, p95, the median of a
 * baseline measured in the same run, their ratio, the target as a ratio, met / not met), and a
 * summary of all checks ends the run. `npm run bench -- --messages 20000` for a quicker pass;
 * `npm run bench -- --only outbox` (or a comma-separated list of: server, store, narrow,
 * session, outbox, heads, cold-start, renderer, word-diff, uploads, large-org, large-org-ui, orgs) for some suites;
 * `--scale 0.1` runs the large-organisation suite on a tenth of its realm (development).
 */
import { parseArgs } from 'node:util';
import { benchColdStart } from './cold-start.bench.js';
import { benchEngineNarrow } from './engine-narrow.bench.js';
import { benchEngineSession } from './engine-session.bench.js';
import { benchEngineStore } from './engine-store.bench.js';
import { benchLargeOrg } from './large-org.bench.js';
import { benchLargeOrgUi } from './large-org-ui.bench.js';
import { benchOrgs } from './orgs.bench.js';
import { printSummary } from './lib.js';
import { benchRenderer } from './renderer.bench.js';
import { benchOutboxHeads } from './outbox-heads.bench.js';
import { benchOutbox } from './outbox.bench.js';
import { benchServer } from './server.bench.js';
import { benchWordDiff } from './word-diff.bench.js';
import { benchUploads } from './uploads.bench.js';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, only: { type: 'string' }, scale: { type: 'string', default: '1' } } });
const messages = Number(values.messages);
if (!Number.isInteger(messages) || messages < 5000) throw new Error('--messages: a whole number of at least 5,000');
const scale = Number(values.scale);
if (!(scale > 0 && scale <= 1)) throw new Error('--scale: a number in (0, 1]');
const SUITES: ReadonlyArray<readonly [string, () => Promise<void>]> = [
  ['server', () => benchServer({ messages })],
  ['engine-store', () => benchEngineStore({ messages })],
  ['engine-narrow', () => benchEngineNarrow({ messages })],
  ['engine-session', () => benchEngineSession({ messages })],
  ['outbox', () => benchOutbox()],
  ['outbox-heads', () => benchOutboxHeads()],
  ['cold-start', () => benchColdStart({ messages })],
  ['renderer', () => benchRenderer({ messages })],
  ['word-diff', () => benchWordDiff()],
  ['uploads', () => benchUploads()],
  ['large-org', () => benchLargeOrg({ scale })],
  ['large-org-ui', () => benchLargeOrgUi({ scale })],
  ['orgs', () => benchOrgs()],
];
const wanted = values.only?.split(',').map((s) => s.trim()).filter((s) => s !== '');
const chosen = SUITES.filter(([name]) => wanted === undefined || wanted.some((w) => name.includes(w)));
if (chosen.length === 0) throw new Error(`--only ${values.only}: no suite named so (${SUITES.map(([n]) => n).join(', ')})`);
const t0 = Date.now();
console.log(`# Benchmarks (node ${process.version}, ${new Date().toISOString()}, ${messages.toLocaleString('en')} messages; suites: ${chosen.map(([n]) => n).join(', ')})`);
for (const [, run] of chosen) await run();
printSummary();
console.log(`\n(${((Date.now() - t0) / 1000).toFixed(0)} s)`);
