/**
 * `npm run bench`: every benchmark suite, each printing a table with medians and ratios against
 * baselines measured in the same run. `npm run bench -- --messages 20000` for a quicker pass;
 * `npm run bench -- --only outbox` (or server, store, narrow, session) for one suite.
 */
import { parseArgs } from 'node:util';
import { benchEngineStore } from './engine-store.bench.js';
import { benchServer } from './server.bench.js';
import { benchEngineNarrow } from './engine-narrow.bench.js';
import { benchEngineSession } from './engine-session.bench.js';
import { benchOutbox } from './outbox.bench.js';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, only: { type: 'string' } } });
const messages = Number(values.messages);
const want = (name: string) => values.only === undefined || name.includes(values.only);
console.log(`# Benchmarks (node ${process.version}, ${new Date().toISOString()})`);
if (want('server')) await benchServer({ messages });
if (want('engine-store')) await benchEngineStore({ messages });
if (want('engine-narrow')) await benchEngineNarrow({ messages });
if (want('engine-session')) await benchEngineSession({ messages });
if (want('outbox')) await benchOutbox();
