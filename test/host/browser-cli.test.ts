/**
 * The browser-mode entry as a user runs it: a child process that prints exactly the URL line (and
 * one sandbox line with --sandbox), answers on loopback, and exits cleanly on SIGTERM. Run from the
 * sources under tsx so the test does not depend on a build; `npm start` runs the same file bundled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeRenderer, get, openWs, pageProtocols, signIn } from './browser-helpers.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const fake = fakeRenderer();
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(fake.root, { recursive: true, force: true });
});

function run(args: string[]): { child: ChildProcess; lines: () => string[]; errors: () => string; exited: Promise<number | string | null>; waitFor: (re: RegExp, ms?: number) => Promise<RegExpMatchArray> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'host', 'browser', 'cli.ts'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  // The exit code, or the signal that ended it (so a failure says which).
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const lines = () => out.split('\n').filter((l) => l !== '');
  const waitFor = async (re: RegExp, ms = 20_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = out.match(re);
      if (m) return m;
      if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${String(re)} in ${JSON.stringify(out)} (stderr ${JSON.stringify(err.slice(0, 2000))})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, lines, errors: () => err, exited, waitFor };
}

describe('browser host CLI', () => {
  it('prints the URL line and the sandbox line, answers, and exits 0 on SIGTERM', async () => {
    const r = run(['--sandbox', '--port', '0', '--data-dir', path.join(fake.root, 'data'), '--renderer', fake.rendererDir]);
    const m = await r.waitFor(/^Open (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64}))$/m);
    await r.waitFor(/^Sandbox: .*http:\/\/127\.0\.0\.1:\d+/m);
    const port = Number(m[2]);
    const { secret } = await signIn(m[1]!);
    const ws = await openWs(port, { origin: `http://127.0.0.1:${port}` }, '/ws', pageProtocols(secret));
    expect(ws.kind).toBe('open');
    if (ws.kind === 'open') ws.ws.terminate();
    const page = await get(port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(r.lines()).toHaveLength(2);
    // The link is spent; SIGUSR2 prints a fresh one (the pid is on stderr), which works once.
    expect((await get(port, `/?token=${m[3]}`)).status).toBe(403);
    expect(r.errors()).toContain(`pid ${r.child.pid}`);
    r.child.kill('SIGUSR2');
    for (let i = 0; i < 400 && r.lines().filter((l) => l.startsWith('Open ')).length < 2; i++) await new Promise((res) => setTimeout(res, 25));
    const fresh = /token=([0-9a-f]{64})$/.exec(r.lines().filter((l) => l.startsWith('Open ')).at(-1) ?? '') ?? [];
    expect(fresh[1]).not.toBe(m[3]);
    expect((await get(port, `/?token=${fresh[1]}`)).status).toBe(200);
    expect(r.lines()).toHaveLength(3);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    await expect(get(port, '/')).rejects.toThrow();
  });

  it('a second host on the same data directory says so and exits 3; the first keeps running', async () => {
    const data = path.join(fake.root, 'shared');
    const first = run(['--port', '0', '--data-dir', data, '--renderer', fake.rendererDir]);
    const m = await first.waitFor(/^Open http:\/\/127\.0\.0\.1:(\d+)\//m);
    const second = run(['--port', '0', '--data-dir', data, '--renderer', fake.rendererDir]);
    expect(await second.exited).toBe(3);
    expect(second.lines()).toEqual([]);
    expect(second.errors()).toMatch(/in use by another running host \(pid \d+\)/);
    // The first one still serves.
    expect((await get(Number(m[1]), '/')).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Closed cleanly: the lock is gone and a new host starts.
    const third = run(['--port', '0', '--data-dir', data, '--renderer', fake.rendererDir]);
    await third.waitFor(/^Open /m);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });

  it('a host killed without closing leaves a stale lock that the next host takes over', async () => {
    const data = path.join(fake.root, 'killed');
    const first = run(['--port', '0', '--data-dir', data, '--renderer', fake.rendererDir]);
    await first.waitFor(/^Open /m);
    first.child.kill('SIGKILL');
    await first.exited;
    const next = run(['--port', '0', '--data-dir', data, '--renderer', fake.rendererDir]);
    await next.waitFor(/^Open /m);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('without --port, a restarted host takes its last port again when it is free, and a page keeps its secret there', async () => {
    const data = path.join(fake.root, 'again');
    const first = run(['--data-dir', data, '--renderer', fake.rendererDir]);
    const m = await first.waitFor(/^Open (http:\/\/127\.0\.0\.1:(\d+)\/\S+)$/m);
    const { secret } = await signIn(m[1]!);
    first.child.kill('SIGKILL');
    await first.exited;
    const next = run(['--data-dir', data, '--renderer', fake.rendererDir]);
    const n = await next.waitFor(/^Open http:\/\/127\.0\.0\.1:(\d+)\//m);
    expect(n[1]).toBe(m[2]);
    const ws = await openWs(Number(n[1]), { origin: `http://127.0.0.1:${n[1]}` }, '/ws', pageProtocols(secret));
    expect(ws.kind).toBe('open');
    if (ws.kind === 'open') ws.ws.terminate();
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('rejects a bad --port with a usage error', async () => {
    const r = run(['--port', 'eighty', '--renderer', fake.rendererDir, '--data-dir', path.join(fake.root, 'data2')]);
    expect(await r.exited).toBe(2);
    expect(r.lines()).toEqual([]);
  });
});
