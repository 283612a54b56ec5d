/**
 * The bytes of files queued for upload (docs/sync-design.md "Uploads"): each is copied into the
 * account's data directory (`NAME.outbox-files/`) before its `upload_file` row is written, so a
 * queued upload survives a crash, a SIGKILL or a restart offline, and the row needs nothing but
 * the copy's id to be sent.
 *
 *   stage(bytes)   write a copy durably (aside, fsync, rename, fsync the directory); its id
 *   read(id)       the copy's bytes (the upload request, the compose preview)
 *   remove(id)     the upload landed or was discarded: the copy goes (unlinked off the event loop)
 *   sweep(keep)    at start: every copy no live row names goes (staged but never queued, or
 *                  removed by a crash between the row's end and the file's)
 *
 * Ids are random hex made here, never a name from the page, so no path comes from a request. An
 * in-memory account keeps its copies in memory.
 *
 * The copies staged last are kept in memory too (at most `RECENT_BYTES` in all, the oldest
 * dropped first): a file sent soon after it was attached (online, at once) is not read back from
 * disk. The copy on disk is written all the same before `stage` returns; only a later read is
 * spared, and a removed copy leaves memory with its file.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';

export const OUTBOX_FILE_ID = /^[0-9a-f]{32}$/;
/** How many bytes of recently staged copies an account on disk keeps in memory (by default). */
const RECENT_BYTES = 32 * 1024 * 1024;

export class OutboxFiles {
  /** Every copy of an in-memory account; the recent ones of an account on disk. */
  private readonly memory = new Map<string, Buffer>();
  private recentBytes = 0;
  /** Copies removed whose file is still being unlinked: already gone to readers. */
  private readonly removing = new Set<string>();

  /** `dir` undefined: an in-memory account. */
  constructor(
    readonly dir: string | undefined,
    private readonly recentLimit = RECENT_BYTES,
  ) {}

  /** `bytes` are the caller's to give: kept (not copied) as a recent copy, so never changed after. */
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
    this.keepRecent(id, bytes);
    return id;
  }

  private keepRecent(id: string, bytes: Buffer): void {
    if (bytes.length > this.recentLimit) return;
    this.memory.set(id, bytes);
    this.recentBytes += bytes.length;
    for (const [old, b] of this.memory) {
      if (this.recentBytes <= this.recentLimit) break;
      this.forget(old, b);
    }
  }

  private forget(id: string, b = this.memory.get(id)): void {
    if (b === undefined || !this.memory.delete(id)) return;
    if (this.dir !== undefined) this.recentBytes -= b.length;
  }

  has(id: string): boolean {
    if (!OUTBOX_FILE_ID.test(id) || this.removing.has(id)) return false;
    if (this.dir === undefined) return this.memory.has(id);
    return existsSync(path.join(this.dir, id));
  }

  async read(id: string): Promise<Buffer> {
    if (!OUTBOX_FILE_ID.test(id)) throw new Error('not an outbox file id');
    const b = this.memory.get(id);
    if (b) return b;
    if (this.dir === undefined || this.removing.has(id)) throw new Error('the file copy is gone');
    return readWhole(path.join(this.dir, id));
  }

  /**
   * Off the event loop (unlinking a 10 MB file took 5 ms there): a copy a failure leaves behind is
   * one no live row names, which the sweep at the next start removes.
   */
  remove(id: string): void {
    if (!OUTBOX_FILE_ID.test(id)) return;
    this.forget(id);
    if (this.dir === undefined) return;
    this.removing.add(id);
    void rm(path.join(this.dir, id), { force: true })
      .catch(() => undefined)
      .finally(() => this.removing.delete(id));
  }

  /** Remove every copy (and half-written file) not in `keep`. */
  sweep(keep: ReadonlySet<string>): number {
    const names = this.dir === undefined ? [...this.memory.keys()] : readdirSafe(this.dir);
    let removed = 0;
    for (const id of [...this.memory.keys()]) if (!keep.has(id)) this.forget(id);
    for (const name of names) {
      if (keep.has(name)) continue;
      if (this.dir !== undefined) rmSync(path.join(this.dir, name), { force: true });
      removed++;
    }
    return removed;
  }
}

/**
 * A file's bytes in one read where the system allows (`readFile` reads 512 KiB at a time, each a
 * turn of the thread pool and of the event loop: a 10 MB copy took 5 to 75 ms on a busy machine).
 */
async function readWhole(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes.subarray(0, at);
  } finally {
    await handle.close();
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
