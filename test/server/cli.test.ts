/**
 * `npm run server`: the real CLI in a child process. It prints its loopback URL, serves the demo
 * realm from a file, and on SIGINT (Ctrl-C) answers the open long-poll, closes the database
 * (no WAL left behind) and exits 0; restarted on the same file it keeps the data. `--help` prints
 * the usage; a bad option says so (exit 2) instead of throwing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'zulip-cli-'));
const dbFile = join(dir, 'sandbox.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startCli(): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/cli.ts', '--port', '0', '--data', dbFile, '--demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited });
      }
    });
  });
}

async function login(url: string): Promise<string> {
  const r = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'iago@example.com', password: 'sandbox' }) });
  const json = (await r.json()) as { api_key: string };
  return `Basic ${Buffer.from(`iago@example.com:${json.api_key}`).toString('base64')}`;
}

function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run server (CLI)', () => {
  it('--help prints the usage and exits 0; a bad option or value says what is wrong with the usage (exit 2), no stack trace', { timeout: 60_000 }, async () => {
    const help = await runToExit(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run server -- \[--port N\]/);
    expect(help.stdout).toContain('--no-rate-limit');
    expect(help.stderr).not.toMatch(/\n\s+at /);

    const unknown = await runToExit(['--nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--nope'");
    expect(unknown.stderr).toContain('usage: npm run server');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);

    const badPort = await runToExit(['--port', 'many']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port: not a port number: many');
    expect(badPort.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints a loopback URL; Ctrl-C answers the open long-poll, closes the database and exits 0; data survives a restart', { timeout: 60_000 }, async () => {
    const first = await startCli();
    const auth = await login(first.url);
    const reg = (await (await fetch(`${first.url}/api/v1/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ event_types: '["message"]' }) })).json()) as { queue_id: string };
    const sent = (await (await fetch(`${first.url}/api/v1/messages`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ type: 'channel', to: 'Verona', topic: 'cli test', content: 'kept across restarts' }) })).json()) as { id: number };
    // Acknowledge the message event, then leave a long-poll open.
    await fetch(`${first.url}/api/v1/events?queue_id=${reg.queue_id}&last_event_id=0&dont_block=true`, { headers: { authorization: auth } });
    const poll = fetch(`${first.url}/api/v1/events?queue_id=${reg.queue_id}&last_event_id=0`, { headers: { authorization: auth } }).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGINT');
    expect(await poll).toMatchObject({ result: 'success', events: [] });
    expect(await first.exited).toBe(0);
    expect(existsSync(`${dbFile}-wal`)).toBe(false);

    const second = await startCli();
    try {
      const again = await login(second.url);
      const r = (await (await fetch(`${second.url}/api/v1/messages/${sent.id}`, { headers: { authorization: again } })).json()) as { message: { content: string } };
      expect(r.message.content).toBe('<p>kept across restarts</p>');
    } finally {
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    }
  });
});
