/**
 * The bytes of files queued for upload (docs/sync-design.md "Uploads"): each is copied into the
 * account's data directory (`NAME.outbox-files/`) before its `upload_file` row is written, so a
 * queued upload survives a crash, a SIGKILL or a restart offline, and the row needs nothing but
 * the copy's id to be sent.
 *
 *   stage(bytes)   write a copy durably (aside, fsync, rename, fsync the directory); its id
 *   read(id)       the copy's bytes (the upload request, the compose preview)
 *   remove(id)     the upload landed or was discarded: the copy goes
 *   sweep(keep)    at start: every copy no live row names goes (staged but never queued, or
 *                  removed by a crash between the row's end and the file's)
 *
 * Ids are random hex made here, never a name from the page, so no path comes from a request. An
 * in-memory account keeps its copies in memory.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const OUTBOX_FILE_ID = /^[0-9a-f]{32}$/;

export class OutboxFiles {
  private readonly memory = new Map<string, Buffer>();

  /** `dir` undefined: an in-memory account. */
  constructor(readonly dir: string | undefined) {}

  stage(bytes: Buffer): string {
    const id = randomBytes(16).toString('hex');
    if (this.dir === undefined) {
      this.memory.set(id, Buffer.from(bytes));
      return id;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, id);
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    syncDir(this.dir);
    return id;
  }

  has(id: string): boolean {
    if (!OUTBOX_FILE_ID.test(id)) return false;
    if (this.dir === undefined) return this.memory.has(id);
    return existsSync(path.join(this.dir, id));
  }

  async read(id: string): Promise<Buffer> {
    if (!OUTBOX_FILE_ID.test(id)) throw new Error('not an outbox file id');
    if (this.dir === undefined) {
      const b = this.memory.get(id);
      if (!b) throw new Error('the file copy is gone');
      return b;
    }
    return readFile(path.join(this.dir, id));
  }

  remove(id: string): void {
    if (!OUTBOX_FILE_ID.test(id)) return;
    if (this.dir === undefined) this.memory.delete(id);
    else rmSync(path.join(this.dir, id), { force: true });
  }

  /** Remove every copy (and half-written file) not in `keep`. */
  sweep(keep: ReadonlySet<string>): number {
    const names = this.dir === undefined ? [...this.memory.keys()] : readdirSafe(this.dir);
    let removed = 0;
    for (const name of names) {
      if (keep.has(name)) continue;
      if (this.dir === undefined) this.memory.delete(name);
      else rmSync(path.join(this.dir, name), { force: true });
      removed++;
    }
    return removed;
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The rename is durable once the directory is (POSIX; a no-op where directories cannot be opened). */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows: directories cannot be fsynced; NTFS journals the rename.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
