/**
 * `npm run server -- [--port 9991] [--host 127.0.0.1] [--data ./sandbox.db] [--demo]
 *                    [--demo-messages N] [--no-rate-limit]`
 * Prints the base URL; Ctrl-C answers open long-polls, closes the database and exits.
 */
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD, DEMO_USERS } from './demo/base.js';
import { startServer } from './index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9991' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string' },
    demo: { type: 'boolean', default: false },
    'demo-messages': { type: 'string', default: '0' },
    'no-rate-limit': { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
const demoMessages = Number(values['demo-messages']);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port number: ${values.port}`);
if (!Number.isInteger(demoMessages) || demoMessages < 0) throw new Error(`--demo-messages: not a count: ${values['demo-messages']}`);

const server = await startServer({
  port,
  host: values.host,
  dataPath: values.data,
  demo: values.demo,
  demoMessages,
  ...(values['no-rate-limit'] ? { config: { rateLimit: false } } : {}),
  log: { info: (m) => console.log(m), error: (m, e) => console.error(m, e) },
});
console.log(server.url);
if (values.demo) {
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
