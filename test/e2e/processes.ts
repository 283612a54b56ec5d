/**
 * Real processes for the outage test: the reference server as its own process with a data file
 * (stopped and started on the same port, as a server going away and coming back), and the
 * browser-mode host as its own process (SIGKILLed and started again on the same data directory).
 * Each prints one line the test waits for; every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface Proc {
  readonly child: ChildProcess;
  /** Everything it printed (stdout and stderr), for the report. */
  output(): string;
  /** SIGTERM and wait for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs (a crash, a power cut). */
  kill(): Promise<void>;
}

/** A free loopback port (the server must come back on the one the app knows). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return addr.port;
}

function start(cmd: string, args: string[], ready: RegExp, what: string, timeoutMs = 60_000): Promise<{ proc: Proc; match: RegExpMatchArray }> {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Proc = {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, match: m });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
}

let serverBundle: Promise<string> | undefined;

/**
 * The reference server's CLI bundled once per test worker (esbuild, from the current sources), so
 * each of the run's many server starts costs a Node start rather than tsx compiling the server
 * again (seconds each on a loaded 2-core machine). Inside node_modules, so the bundle finds its
 * packages (better-sqlite3 is native) there; removed when the worker exits.
 */
function bundledServer(): Promise<string> {
  return (serverBundle ??= (async () => {
    const dir = path.join(ROOT, 'node_modules', '.cache', 'e2e-server');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `cli-${process.pid}.mjs`);
    process.once('exit', () => rmSync(file, { force: true }));
    await build({ entryPoints: [path.join(ROOT, 'server', 'cli.ts')], outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
    return file;
  })());
}

/** The reference server with the demo realm, its state in `dataFile` (kept across restarts). */
export async function startServerProcess(port: number, dataFile: string, extraArgs: readonly string[] = []): Promise<{ proc: Proc; url: string }> {
  const cli = await bundledServer();
  const { proc, match } = await start(process.execPath, [cli, '--port', String(port), '--data', dataFile, '--demo', '--no-rate-limit', ...extraArgs], /^(http:\/\/127\.0\.0\.1:\d+)$/m, 'the reference server');
  return { proc, url: match[1]! };
}

/** The reference server with the large organisation at `scale` (server/demo/large-org.ts; sign in as bench@example.com). */
export async function startLargeOrgServerProcess(port: number, dataFile: string, scale: number): Promise<{ proc: Proc; url: string }> {
  const cli = await bundledServer();
  const { proc, match } = await start(process.execPath, [cli, '--port', String(port), '--data', dataFile, '--seed', 'large', '--seed-scale', String(scale), '--no-rate-limit'], /^(http:\/\/127\.0\.0\.1:\d+)$/m, 'the reference server (large organisation)');
  return { proc, url: match[1]! };
}

/** The built browser-mode host (out/main/browser-host.js) on `dataDir` (on `port` if given); `url` is the one to open. */
export async function startHostProcess(dataDir: string, port?: number): Promise<{ proc: Proc; url: string }> {
  const args = [path.join(ROOT, 'out', 'main', 'browser-host.js'), '--data-dir', dataDir, ...(port === undefined ? [] : ['--port', String(port)])];
  const { proc, match } = await start(process.execPath, args, /^Open (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m, 'the browser host');
  return { proc, url: match[1]! };
}
