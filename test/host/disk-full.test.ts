/**
 * A full disk through the real host and engine (docs/sync-design.md "A full disk"): the browser
 * host runs in a child process (disk-full-host.ts) with the account databases on a small tmpfs
 * (we run as root; where mounting is refused the same test runs with SQLite's `max_page_count` as
 * the limit, so it never skips). Changes queued while the server is away, then the disk fills and
 * the server comes back:
 *   - a change the user makes is refused in words (DISK_FULL), and the status says the disk is full;
 *   - the engine does not spin: its CPU time and its log lines stay small over the full window, and
 *     the page's questions are answered promptly throughout;
 *   - once there is room again it resumes by itself, and every queued change lands exactly once
 *     (the refused one never).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../sync/base/seams.js';
import type { EngineEvent } from '../../sync/protocol/commands.js';
import { FaultProxy } from '../support/fault-proxy.js';
import { channelId, startTestServer, type TestServer } from '../server/harness.js';
import { fakeRenderer, openWs, pageProtocols, signIn, TestPage } from './browser-helpers.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const fake = fakeRenderer();
const dataDir = path.join(fake.root, 'data');
const accountsDir = path.join(dataDir, 'accounts');
const QUEUED = 5;
const WINDOW_MS = 5_000;

let t: TestServer;
let proxy: FaultProxy;
let child: ChildProcess | undefined;
let mounted = false;

beforeAll(async () => {
  t = await startTestServer({ clock: systemClock });
  proxy = await FaultProxy.start(t.url);
  mkdirSync(accountsDir, { recursive: true, mode: 0o700 });
  // A small disk of its own for the account databases (the keys file and the lock stay outside).
  // DISK_FULL_LIMIT=pages runs the fallback on purpose.
  mounted = process.env.DISK_FULL_LIMIT !== 'pages' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0700', 'tmpfs', accountsDir]).status === 0;
});

afterAll(async () => {
  try {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await proxy?.close();
    await t?.close();
  } finally {
    if (mounted) spawnSync('umount', ['-l', accountsDir]);
    rmSync(fake.root, { recursive: true, force: true });
  }
});

/** The child's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Fill the disk under `dir` to the last byte. */
function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

describe(`a full disk under the browser host`, () => {
  it('refuses a change in words, says so in the status, does not spin, and lands the queue exactly once when there is room', { timeout: 120_000 }, async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'host', 'disk-full-host.ts'), dataDir, fake.rendererDir], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    child = proc;
    let out = '';
    let errLines: string[] = [];
    let errBuf = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      errBuf += d;
      const parts = errBuf.split('\n');
      errBuf = parts.pop()!;
      errLines = errLines.concat(parts.filter((l) => l !== ''));
    });
    const waitOut = async (re: RegExp, ms = 30_000): Promise<RegExpMatchArray> => {
      const end = Date.now() + ms;
      for (;;) {
        const m = out.match(re);
        if (m) return m;
        if (Date.now() > end || proc.exitCode !== null) throw new Error(`no ${String(re)} in ${JSON.stringify(out)}; stderr ${errLines.slice(-20).join('\n')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    let commands = 0;
    const command = async (cmd: string): Promise<string> => {
      const n = ++commands;
      proc.stdin!.write(`${cmd}\n`);
      const m = await waitOut(new RegExp(`^(?:ok|err) ${cmd}.*$`, 'gm'));
      const line = m[n - 1] ?? m.at(-1)!;
      if (line.startsWith('err')) throw new Error(line);
      return line;
    };

    const url = (await waitOut(/^open (\S+)$/m))[1]!;
    const { secret } = await signIn(url);
    const port = Number(new URL(url).port);
    const ws = await openWs(port, { origin: `http://127.0.0.1:${port}` }, '/ws', pageProtocols(secret));
    if (ws.kind !== 'open') throw new Error(`refused ${ws.status}`);
    const page = new TestPage(ws.ws);
    const statuses = () => page.events.filter((e): e is Extract<EngineEvent, { type: 'status' }> => e.type === 'status').map((e) => e.status);
    const until = async (what: string, cond: () => Promise<boolean> | boolean, ms = 30_000) => {
      const end = Date.now() + ms;
      while (!(await cond())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; stderr ${errLines.slice(-20).join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const status = async () => {
      const r = await page.invoke('status');
      return r.ok ? (r.value as { state: string }).state : `failed: ${r.error.code}`;
    };

    try {
      const signed = await page.invoke('signIn', { realm_url: proxy.url, email: 'hamlet@example.com', credentials: { password: 'sandbox' }, allow_plain_storage: true });
      expect(signed.ok, JSON.stringify(signed)).toBe(true);
      await until('live', async () => (await status()) === 'live');

      // Changes made while the server is away wait in the outbox.
      await proxy.pause();
      await until('offline', async () => (await status()) === 'offline');
      const verona = channelId(t, 'Verona');
      const stamp = `disk${Date.now()}`;
      const contents = Array.from({ length: QUEUED }, (_, i) => `${stamp} queued ${i}`);
      for (const content of contents) {
        const r = await page.invoke('sendMessage', { to: { type: 'channel', channel_id: verona, topic: 'full disk' }, content });
        expect(r.ok, JSON.stringify(r)).toBe(true);
      }

      // The disk fills. The log is emptied first, so the next write needs room (as after a quiet spell).
      await command('checkpoint');
      const filler = mounted ? fillDisk(accountsDir) : undefined;
      if (!mounted) await command('limit');
      await proxy.resume();

      // The full window: the engine retries on its backoff, the page keeps getting answers.
      const pid = proc.pid!;
      const cpu0 = cpuMs(pid);
      const lines0 = errLines.length;
      const t0 = Date.now();
      let slowest = 0;
      let unanswered = 0;
      let refused: Awaited<ReturnType<TestPage['invoke']>> | undefined;
      while (Date.now() - t0 < WINDOW_MS) {
        const a = Date.now();
        try {
          if (refused === undefined && Date.now() - t0 > 1_000) {
            // Large enough that it cannot fit in space the database already holds.
            refused = await page.invoke('sendMessage', { to: { type: 'channel', channel_id: verona, topic: 'full disk' }, content: `${stamp} refused ${'x'.repeat(200_000)}` });
          } else await status();
        } catch {
          unanswered++; // no answer within 5 s
        }
        slowest = Math.max(slowest, Date.now() - a);
        await new Promise((r) => setTimeout(r, 100));
      }
      const elapsed = Date.now() - t0;
      const cpu = cpuMs(pid) - cpu0;
      const windowLines = errLines.length - lines0;
      console.log(
        `full disk (${mounted ? 'tmpfs' : 'max_page_count'}): ${elapsed} ms window, child CPU ${cpu} ms (${Math.round((100 * cpu) / elapsed)}%), ${windowLines} log lines, ` +
          `slowest answer ${slowest} ms, ${unanswered} questions unanswered\n` +
          errLines
            .slice(lines0, lines0 + 10)
            .map((l) => `  ${l.slice(0, 160)}`)
            .join('\n'),
      );

      expect(refused).toEqual({ ok: false, error: { code: 'DISK_FULL', message: 'The disk is full; your change was not saved.', details: { reason: 'full' } } });
      expect(statuses().some((s) => s.state === 'disk_full' && s.reason === 'full')).toBe(true);
      expect(await status()).toBe('disk_full');
      expect(cpu).toBeLessThan(elapsed * 0.3);
      expect(windowLines, errLines.slice(lines0, lines0 + 20).join('\n')).toBeLessThanOrEqual(10);
      expect(unanswered).toBe(0);
      expect(slowest).toBeLessThan(2_000);

      // Room again: nothing more is done from here, the engine finds out by itself.
      if (filler) unlinkSync(filler);
      else await command('unlimit');
      const all = new Set(contents);
      const onServer = () => t.server.state.db.prepare<[string], { content: string }>('SELECT content FROM messages WHERE content LIKE ?').all(`${stamp}%`).map((r) => r.content);
      await until(
        'the queue landed',
        async () => {
          const counts = await page.invoke('outboxCounts', {});
          return counts.ok && (counts.value as { pending: number }).pending === 0 && onServer().filter((c) => all.has(c)).length >= QUEUED && (await status()) === 'live';
        },
        90_000,
      );
      // Exactly once each, and the refused change never.
      expect(onServer().sort()).toEqual([...contents].sort());
      const counts = await page.invoke('outboxCounts', {});
      expect(counts).toMatchObject({ ok: true, value: { pending: 0, failed: 0, conflict: 0 } });
      // The state's start and end are said once each, not once per attempt.
      expect(errLines.filter((l) => l.includes('the disk is full')).length).toBeLessThanOrEqual(4);
    } finally {
      page.ws.terminate();
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      // A spinning host never runs its SIGTERM handler.
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  });
});
