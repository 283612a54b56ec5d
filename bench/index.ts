/**
 * `npm run bench`: every benchmark suite, each printing a table with medians and ratios against
 * baselines measured in the same run. `npm run bench -- --messages 20000` for a quicker pass.
 */
import { parseArgs } from 'node:util';
import { benchEngineStore } from './engine-store.bench.js';
import { benchServer } from './server.bench.js';
import { benchEngineNarrow } from './engine-narrow.bench.js';
import { benchEngineSession } from './engine-session.bench.js';
import { benchOutbox } from './outbox.bench.js';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' } } });
const messages = Number(values.messages);
console.log(`# Benchmarks (node ${process.version}, ${new Date().toISOString()})`);
await benchServer({ messages });
await benchEngineStore({ messages });
await benchEngineNarrow({ messages });
await benchEngineSession({ messages });
await benchOutbox();
