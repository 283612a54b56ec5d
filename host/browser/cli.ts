/**
 * The browser-mode entry: `node out/main/browser-host.js [--sandbox] [--port N] [--data-dir DIR]
 * [--renderer DIR]` (what `npm start` runs when no Electron binary is installed).
 * Prints one line with the URL to open (and one about the sandbox when it runs); Ctrl-C or SIGTERM
 * closes the engine, the sandbox and the server before exiting. A second host on the same data
 * directory says so and exits 3. The printed link signs a browser in once; SIGUSR2 prints a fresh
 * one (the host's pid is in the second host's refusal).
 */
import { parseArgs } from 'node:util';
import { DEMO_PASSWORD } from '../../server/demo/base.js';
import { DataDirInUseError } from '../data-dir-lock.js';
import { defaultDataDir, defaultRendererDir } from './paths.js';
import { startBrowserHost } from './server.js';

const USAGE = 'usage: browser-host [--sandbox] [--port N] [--data-dir DIR] [--renderer DIR]';

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

let values: { sandbox?: boolean; port?: string; 'data-dir'?: string; renderer?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      sandbox: { type: 'boolean', default: false },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (e) {
  fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`, 2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

// Absent: the last run's port when it is free (an open page reconnects to it), else a free one.
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) fail(`--port: not a port number: ${values.port}`, 2);
const rendererDir = values.renderer ?? defaultRendererDir(import.meta.dirname);
if (rendererDir === undefined) fail('no built renderer found (out/renderer/index.html): run `npm run build` first', 1);
const dataDir = values['data-dir'] ?? defaultDataDir();

let host: Awaited<ReturnType<typeof startBrowserHost>>;
try {
  host = await startBrowserHost({
    dataDir,
    rendererDir,
    port,
    sandbox: values.sandbox,
    log: (line) => console.error(line),
  });
} catch (e) {
  // Exit 3: another host has this data directory (npm start twice); 1: anything else.
  if (e instanceof DataDirInUseError) {
    const fresh = process.platform === 'win32' ? '' : `; for a fresh sign-in link from it: kill -USR2 ${e.pid}`;
    fail(`browser host: ${e.message}${fresh}`, 3);
  }
  fail(`browser host: ${e instanceof Error ? e.message : String(e)}`, 1);
}

// Before the link is printed: whoever reads it may stop the host at once (a test, a service
// manager), and a SIGTERM before these are set would kill it without closing.
let stopping = false;
async function stop(): Promise<void> {
  // A second Ctrl-C while closing means "now".
  if (stopping) process.exit(130);
  stopping = true;
  await host.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

console.log(`Open ${host.url}`);
// The link works once (it hands the tab a secret and leaves the URL bar): `kill -USR2 PID` prints a fresh one.
if (process.platform !== 'win32') {
  process.on('SIGUSR2', () => console.log(`Open ${host.newLoginUrl()}`));
  console.error(`browser host: pid ${process.pid}; the link signs in once, \`kill -USR2 ${process.pid}\` prints a fresh one`);
}
const sandboxUrl = host.sandboxUrl();
if (sandboxUrl !== undefined) console.log(`Sandbox: the demo realm runs at ${sandboxUrl} (every demo user's password is "${DEMO_PASSWORD}")`);

