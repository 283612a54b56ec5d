/** One host per data directory: the lock file, a live owner refused, a dead owner's lock taken over, release. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir, pidAlive } from '../../host/data-dir-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'zod-lock-'));
  dirs.push(d);
  return d;
}

/** The pid of a process that has exited (so certainly not alive now). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('data directory lock', () => {
  it('writes the pid; a second lock while the owner lives is refused, naming the owner', () => {
    const d = dir();
    const a = lockDataDir(d);
    expect(readFileSync(path.join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    // Another live process holds it (our parent stands in for "another host").
    writeFileSync(path.join(d, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(d)).toThrow(DataDirInUseError);
    try {
      lockDataDir(d);
    } catch (e) {
      expect(e).toMatchObject({ pid: process.ppid, dataDir: d });
      expect((e as Error).message).toMatch(/in use by another running host/);
    }
    // Release leaves another owner's lock alone.
    a.release();
    expect(existsSync(path.join(d, LOCK_FILE))).toBe(true);
  });

  it("a dead owner's lock is stale and taken over; release removes our own", () => {
    const d = dir();
    const pid = deadPid();
    expect(pidAlive(pid)).toBe(false);
    writeFileSync(path.join(d, LOCK_FILE), `${pid}\n`);
    const lock = lockDataDir(d);
    expect(readFileSync(lock.file, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
    // Garbage in the file is stale too.
    writeFileSync(path.join(d, LOCK_FILE), 'not a pid');
    lockDataDir(d).release();
  });
});
