/**
 * `npm run server -- [--port 9991] [--host 127.0.0.1] [--data ./sandbox.db] [--demo]
 *                    [--demo-messages N] [--seed large [--seed-scale F]] [--no-rate-limit]
 *                    [--clock-offset S] [--help]`
 * Prints the base URL; Ctrl-C answers open long-polls, closes the database and exits.
 */
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD, DEMO_USERS } from './demo/base.js';
import { LARGE_ORG_EMAIL } from './demo/large-org.js';
import { startServer } from './index.js';

const USAGE = `usage: npm run server -- [--port N] [--host ADDR] [--data FILE] [--demo] [--demo-messages N] [--seed large] [--seed-scale F] [--no-rate-limit] [--clock-offset S]
  --port N            port to listen on (default 9991; 0 picks a free one)
  --host ADDR         address to bind (default 127.0.0.1)
  --data FILE         SQLite file kept across restarts (default: in memory)
  --demo              seed the demo realm (password "${DEMO_PASSWORD}" for every account)
  --demo-messages N   with --demo, also seed N messages
  --seed large        seed a large organisation instead (10,000 users, 500 channels, 50,000 topics,
                      1,000,000 messages; about a minute); sign in as ${LARGE_ORG_EMAIL}
  --seed-scale F      with --seed large, a fraction (0, 1] of every count (e.g. 0.01)
  --clock-offset S    run the server's clock S seconds ahead of the system's (tests: time that
                      passed while the server was stopped, e.g. a scheduled message falling due)
  --no-rate-limit     turn off Zulip-style rate limiting`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { port: string; host: string; data?: string; demo: boolean; 'demo-messages': string; 'no-rate-limit': boolean; 'clock-offset': string; seed?: string; 'seed-scale': string; help: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '9991' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'demo-messages': { type: 'string', default: '0' },
      'no-rate-limit': { type: 'boolean', default: false },
      'clock-offset': { type: 'string', default: '0' },
      seed: { type: 'string' },
      'seed-scale': { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port);
const demoMessages = Number(values['demo-messages']);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: not a port number: ${values.port}`);
if (!Number.isInteger(demoMessages) || demoMessages < 0) fail(`--demo-messages: not a count: ${values['demo-messages']}`);
if (values.seed !== undefined && values.seed !== 'large') fail(`--seed: the one seed is "large", not ${values.seed}`);
const seedScale = Number(values['seed-scale']);
if (!(seedScale > 0 && seedScale <= 1)) fail(`--seed-scale: a number in (0, 1]: ${values['seed-scale']}`);
const clockOffset = Number(values['clock-offset']);
if (!Number.isSafeInteger(clockOffset) || clockOffset < 0) fail(`--clock-offset: not a number of seconds: ${values['clock-offset']}`);

const server = await startServer({
  port,
  host: values.host,
  dataPath: values.data,
  demo: values.demo,
  demoMessages,
  ...(values.seed === 'large' ? { largeOrg: { scale: seedScale } } : {}),
  ...(clockOffset > 0 ? { clock: { now: () => Date.now() + clockOffset * 1000 } } : {}),
  ...(values['no-rate-limit'] ? { config: { rateLimit: false } } : {}),
  log: { info: (m) => console.log(m), error: (m, e) => console.error(m, e) },
});
console.log(server.url);
if (values.seed === 'large') {
  console.log(`Large organisation: sign in as ${LARGE_ORG_EMAIL} (password "${DEMO_PASSWORD}")`);
} else if (values.demo) {
  console.log(`Demo accounts (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
}
console.log(`API: ${server.url}/api/v1   data: ${values.data ?? '(in memory)'}   Ctrl-C to stop`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
