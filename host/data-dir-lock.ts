/**
 * One process per data directory. Two hosts on one directory would drain the same outboxes twice
 * (duplicate sends), fight over the same SQLite files and overwrite each other's key file, so the
 * second one must refuse to start, say why, and exit non-zero.
 *
 * The lock is a file, `host.lock`, created exclusively (`O_EXCL`) with the owner's pid. A lock whose
 * pid is no longer alive (the host crashed or was killed) is stale: it is taken over. A lock whose
 * pid is alive belongs to another host: `DataDirInUseError`. Release removes the file only while it
 * still names this process. (A pid reused by an unrelated process after a crash reads as "in use";
 * the message names the file to delete in that case.)
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'host.lock';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `the data directory ${dataDir} is in use by another running host (pid ${pid}): close that one first, or start this one with --data-dir pointing elsewhere (if no such host runs, delete ${lockFile})`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Whether a process with this pid exists (EPERM: it exists but is not ours to signal). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e instanceof Error && 'code' in e && e.code === 'EPERM';
  }
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim().split(/\s/)[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Take the directory's lock (the directory must exist); throws `DataDirInUseError` when another live host holds it. */
export function lockDataDir(dataDir: string, pid: number = process.pid): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (e) {
      if (!(e instanceof Error && 'code' in e && e.code === 'EEXIST')) throw e;
      const owner = ownerOf(file);
      if (owner !== undefined && owner !== pid && pidAlive(owner)) throw new DataDirInUseError(dataDir, owner, file);
      // Stale (its host is gone), unreadable or half-written, or our own: take it over.
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${pid}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      file,
      release: () => {
        if (released) return;
        released = true;
        if (ownerOf(file) === pid) rmSync(file, { force: true });
      },
    };
  }
  throw new Error(`could not take the lock ${file}: it keeps reappearing`);
}
