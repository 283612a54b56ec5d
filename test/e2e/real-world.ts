/**
 * A real world for offline e2e tests: the reference server as its own process with a data file
 * (stopped and started on the same port: a server going away and coming back, never a paused
 * session) and the browser-mode host as its own process, signed in from the first screen as a
 * demo user. `rest(email)` talks to the server over its REST API, to set things up and to verify
 * what landed. Every wait is bounded; `close()` stops both processes and removes the files.
 *
 *   const world = await openRealWorld(page, 'hamlet@example.com');
 *   try { await world.stopServer(); ...offline...; await world.startServer(); ... }
 *   finally { await world.close(); }
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { freePort, startHostProcess, startServerProcess, type Proc } from './processes.js';
import { foreignRequests } from './fixtures.js';

export type Rest = Awaited<ReturnType<typeof restAs>>;

/** A demo user's REST client (password `sandbox`); `call` throws with the server's words on an error. */
export async function restAs(url: string, email: string) {
  const keyRes = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) });
  const key = (await keyRes.json()) as { api_key?: string; msg?: string };
  if (key.api_key === undefined) throw new Error(`fetch_api_key: ${key.msg ?? keyRes.status}`);
  const auth = `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}`;
  /** The raw answer, success or not (for permission checks). */
  const raw = async (method: string, apiPath: string, params: Record<string, string> = {}) => {
    const q = new URLSearchParams(params);
    const res = method === 'GET' ? await fetch(`${url}/api/v1${apiPath}?${q}`, { headers: { authorization: auth } }) : await fetch(`${url}/api/v1${apiPath}`, { method, headers: { authorization: auth }, body: q });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const call = async (method: string, apiPath: string, params: Record<string, string> = {}) => {
    const { body } = await raw(method, apiPath, params);
    if (body['result'] !== 'success') throw new Error(`${method} ${apiPath}: ${String(body['msg'])}`);
    return body;
  };
  type Msg = { id: number; content: string; subject: string; flags: string[]; timestamp: number; sender_email: string };
  const messages = async (narrow: unknown[]) =>
    (await call('GET', '/messages', { narrow: JSON.stringify(narrow), anchor: 'newest', num_before: '200', num_after: '0', apply_markdown: 'false' }))['messages'] as Msg[];
  return { call, raw, messages };
}

/** The header's connection status. */
export const statusOf = (page: Page) => page.getByRole('banner').getByRole('status').first();

/**
 * Sign in from the welcome screen with a demo user's password, accept storing the key unencrypted
 * (the browser-mode host has no keychain; `keychain: true` where there is one, as in the Electron
 * harness), and wait until the app is live.
 */
export async function signInFromWelcome(page: Page, serverUrl: string, email: string, opts: { keychain?: boolean } = {}): Promise<void> {
  await page.getByLabel('Server URL').fill(serverUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill('sandbox');
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (opts.keychain !== true) await page.getByRole('alertdialog').getByRole('button', { name: 'Store unencrypted and sign in' }).click();
  await expect(statusOf(page)).toContainText('Live', { timeout: 30_000 });
}

export interface RealWorld {
  readonly serverUrl: string;
  rest(email: string): Promise<Rest>;
  /** Stop the server process and wait until the app says Offline. */
  stopServer(): Promise<void>;
  /** Start it again on the same port and data, and wait until the app says Live. */
  startServer(): Promise<void>;
  /** Freeze the server process (SIGSTOP: its sockets stay open and stop reading) or let it go on (SIGCONT). */
  freezeServer(frozen: boolean): void;
  /**
   * While the server is stopped: others act on its data where this app cannot hear them (a second
   * server process on another port over the same data file, REST clients for `f`), as another
   * device changing things while this one is offline.
   */
  whileAway(f: (rest: (email: string) => Promise<Rest>) => Promise<void>): Promise<void>;
  /**
   * Stop the app's host process and start it again on the same data and port (the app quit and
   * opened again); the tab is reloaded from it. The socket's failed attempts meanwhile are not
   * problems.
   */
  restartApp(): Promise<void>;
  /** Errors the page logged (connection failures while the server is down excepted), and any request to another origin than the host's. */
  problems(): string[];
  close(): Promise<void>;
}

export async function openRealWorld(page: Page, email: string, setup?: (rest: (email: string) => Promise<Rest>) => Promise<void>): Promise<RealWorld> {
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-world-'));
  const dataFile = path.join(work, 'server.db');
  const port = await freePort();
  const procs: Proc[] = [];
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource|ERR_CONNECTION/.test(m.text()) && !(restarting && /WebSocket connection/.test(m.text()))) problems.push(`console: ${m.text()}`);
  });
  let server = await startServerProcess(port, dataFile);
  procs.push(server.proc);
  const rest = (who: string) => restAs(server.url, who);
  let host: { proc: Proc; url: string } | undefined;
  let foreign: string[] = [];
  let restarting = false;
  const close = async () => {
    for (const p of procs) {
      p.child.kill('SIGCONT');
      await p.stop().catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    if (setup) await setup(rest);
    host = await startHostProcess(path.join(work, 'app'));
    procs.push(host.proc);
    // The host restarts on the same port: one origin for the whole test.
    foreign = foreignRequests(page, new URL(host.url).origin);
    await page.goto(host.url);
    await signInFromWelcome(page, server.url, email);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    serverUrl: server.url,
    rest,
    async stopServer() {
      await server.proc.stop();
      await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    },
    async startServer() {
      server = await startServerProcess(port, dataFile);
      procs.push(server.proc);
      await expect(statusOf(page)).toContainText('Live', { timeout: 60_000 });
    },
    freezeServer(frozen) {
      server.proc.child.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    async whileAway(f) {
      if (server.proc.child.exitCode === null && server.proc.child.signalCode === null) throw new Error('whileAway: stop the server first');
      const other = await startServerProcess(await freePort(), dataFile);
      try {
        await f((who) => restAs(other.url, who));
      } finally {
        await other.proc.stop();
      }
    },
    async restartApp() {
      if (!host) throw new Error('restartApp: no host');
      restarting = true;
      await host.proc.stop();
      host = await startHostProcess(path.join(work, 'app'), Number(new URL(host.url).port));
      procs.push(host.proc);
      await page.reload();
      restarting = false;
    },
    problems: () => [...problems, ...foreign.map((url) => `request to another origin: ${url}`)],
    close,
  };
}
