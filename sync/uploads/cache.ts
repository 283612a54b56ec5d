/**
 * The account's upload cache: images the realm serves under `/user_uploads/...` (and Zulip's
 * `/user_uploads/thumbnail/...`), fetched with the account's credentials and kept on disk, so the
 * page can show them without credentials of its own and offline; likewise images of other sites
 * through the realm's image proxy, users' avatars (Gravatar's too, fetched without the realm's
 * credentials) and videos Zulip previews inline (sync/protocol/media-paths.ts), all within the same
 * bounds. Both hosts serve the page from
 * `get()` (the browser-mode host's `/uploads/...` route, Electron's `zulip-upload:` scheme).
 *
 *   get(path)       the cached copy (its recency refreshed); else, online, the realm's answer,
 *                   kept when it is an image; `not_found` for a path that is not a realm upload,
 *                   one the realm refuses or that is not an image; `unavailable` when it is not
 *                   cached and the realm cannot be asked (offline, timeout, 5xx)
 *   prefetch(paths) the same in the background for images of messages in view, a few at a time,
 *                   online only, so they survive going offline
 *   get(path, { anyType: true })  a file a message links, of any type, for a download (kept too,
 *                   served only as an attachment by the hosts, never shown inline)
 *   pin(path)       fetch a file ahead ("keep offline") and keep it: pinned files are never evicted,
 *                   and together they stay within `maxTotalBytes` (a pin past it is refused)
 *
 * Bounds: a file is at most `maxFileBytes` (the transport stops reading past it), the directory at
 * most `maxTotalBytes`, the least recently used files evicted first (recency is the data file's
 * mtime, so it survives restarts), pinned ones never. Only image types browsers decode safely are
 * served as images (never SVG: it can carry script), and mp4 / webm videos; other types only to `anyType` asks. Files are named by the SHA-256 of the canonical path, so no
 * path from a message or a request ever becomes a file name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { canonicalUploadPath, realmUploadPath } from '../protocol/uploads.js';

const MiB = 1024 * 1024;
export const DEFAULT_MAX_TOTAL_BYTES = 256 * MiB;
/** The API client's cap for reads (`READ_RESPONSE_BYTES`). */
export const DEFAULT_MAX_FILE_BYTES = 16 * MiB;
const PREFETCH_CONCURRENCY = 2;
const PREFETCH_QUEUE_MAX = 500;

/** Image types kept and served (no SVG: script; no TIFF/ICO/BMP oddities). */
export const CACHED_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);
/** Video types Zulip previews inline (`message_inline_video`: mp4, webm), played from the host like images are shown. */
export const INLINE_VIDEO_TYPES: ReadonlySet<string> = new Set(['video/mp4', 'video/webm']);
/** Shown inline by the page (an `<img>` or a `<video>`): answered as `image`. */
const shownInline = (type: string) => CACHED_IMAGE_TYPES.has(type) || INLINE_VIDEO_TYPES.has(type);

export type UploadAnswer =
  /** Shown inline: an image, or a video Zulip previews inline. */
  | { readonly kind: 'image'; readonly contentType: string; readonly body: Buffer; readonly cached: boolean }
  /** Only to `anyType` asks: a file that is not an image this app shows. */
  | { readonly kind: 'file'; readonly contentType: string; readonly body: Buffer; readonly cached: boolean }
  | { readonly kind: 'not_found'; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** What the realm answered; throws when there is no answer (network, timeout, too large). */
export interface FetchedFile {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}
export type UploadFetcher = (realmPath: string, opts: { maxResponseBytes: number; signal: AbortSignal }) => Promise<FetchedFile>;

export interface UploadCacheOptions {
  /** Where files are kept; undefined keeps nothing (an in-memory account): answers come straight from the realm. */
  readonly dir: string | undefined;
  readonly fetch: UploadFetcher;
  /** False: do not ask the realm (answers come from the cache or are `unavailable`). Default: always ask. */
  readonly online?: () => boolean;
  readonly maxTotalBytes?: number;
  readonly maxFileBytes?: number;
  readonly warn?: (message: string, data?: Readonly<Record<string, unknown>>) => void;
}

interface Entry {
  readonly file: string;
  readonly contentType: string;
  readonly size: number;
  /** Kept offline by the user's ask: never evicted. */
  readonly pinned: boolean;
}

export type PinAnswer = { readonly kind: 'kept' } | { readonly kind: 'not_found' | 'unavailable' | 'over_budget'; readonly reason: string };

const metaSchema = z.object({ path: z.string(), type: z.string(), size: z.number().int().nonnegative(), pinned: z.boolean().default(false) });

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export class UploadCache {
  /** Least recently used first (a Map keeps insertion order; a use re-inserts). */
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private readonly inFlight = new Map<string, Promise<UploadAnswer>>();
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private workers = 0;
  private readonly stop = new AbortController();
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  readonly maxTotalBytes: number;
  readonly maxFileBytes: number;

  constructor(private readonly opts: UploadCacheOptions) {
    this.maxTotalBytes = opts.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (opts.dir !== undefined) this.load(opts.dir);
  }

  /** Bytes kept on disk now. */
  get totalBytes(): number {
    return this.total;
  }

  /** Canonical paths kept, least recently used first. */
  keptPaths(): string[] {
    return [...this.entries.keys()];
  }

  has(realmPath: string): boolean {
    const p = canonicalUploadPath(realmPath);
    return p !== undefined && this.entries.has(p);
  }

  async get(realmPath: string, opts: { anyType?: boolean } = {}): Promise<UploadAnswer> {
    const anyType = opts.anyType === true;
    const p = canonicalUploadPath(realmPath);
    if (p === undefined) return { kind: 'not_found', reason: 'not an upload path of this realm' };
    const hit = await this.read(p, anyType);
    if (hit) return hit;
    if (this.stop.signal.aborted) return { kind: 'unavailable', reason: 'the account is closed' };
    if (this.opts.online && !this.opts.online()) return { kind: 'unavailable', reason: 'not on this device, and the server cannot be reached' };
    const key = `${anyType}:${p}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchAndKeep(p, anyType).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Keep a file offline ("keep offline"): fetched now unless kept already, then never evicted. */
  async pin(realmPath: string): Promise<PinAnswer> {
    const p = canonicalUploadPath(realmPath);
    if (p === undefined) return { kind: 'not_found', reason: 'not an upload path of this realm' };
    if (this.opts.dir === undefined) return { kind: 'unavailable', reason: 'this account keeps nothing on disk' };
    const answer = await this.get(p, { anyType: true });
    if (answer.kind === 'not_found' || answer.kind === 'unavailable') return answer;
    const e = this.entries.get(p);
    if (e?.pinned) return { kind: 'kept' };
    // (A file the pinned ones leave no room for was not kept by `get`.)
    if (this.pinnedBytes() + answer.body.length > this.maxTotalBytes) return { kind: 'over_budget', reason: `files kept offline may take at most ${this.maxTotalBytes} bytes` };
    if (!e) return { kind: 'unavailable', reason: 'the file could not be kept on disk' };
    const pinned = { ...e, pinned: true };
    this.entries.set(p, pinned);
    await this.writeMeta(p, pinned);
    return { kind: 'kept' };
  }

  /** Canonical paths kept offline (pinned). */
  pinnedPaths(): string[] {
    return [...this.entries].filter(([, e]) => e.pinned).map(([p]) => p);
  }

  private pinnedBytes(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.pinned) n += e.size;
    return n;
  }

  private writeMeta(p: string, e: Entry): Promise<void> {
    return writeFile(`${e.file}.json`, JSON.stringify({ path: p, type: e.contentType, size: e.size, pinned: e.pinned }), { mode: 0o600 });
  }

  /** Keep a file the app itself uploaded (an image type only), so the sent message shows it offline. */
  async put(realmPath: string, contentType: string, body: Buffer): Promise<void> {
    const p = canonicalUploadPath(realmPath);
    const type = mediaType(contentType);
    if (p === undefined || !CACHED_IMAGE_TYPES.has(type) || body.length > this.maxFileBytes) return;
    await this.keep(p, type, body);
  }

  /** Fetch these in the background (online only, skipping kept ones); paths that are not uploads are ignored. */
  prefetch(realmPaths: Iterable<string>): void {
    if (this.stop.signal.aborted || (this.opts.online && !this.opts.online())) return;
    for (const raw of realmPaths) {
      const p = canonicalUploadPath(raw);
      if (p === undefined || this.entries.has(p) || this.queued.has(p)) continue;
      if (this.queue.length >= PREFETCH_QUEUE_MAX) break;
      this.queue.push(p);
      this.queued.add(p);
    }
    while (this.workers < PREFETCH_CONCURRENCY && this.queue.length > 0) this.startWorker();
  }

  /** Resolves when no prefetch is running or queued (tests). */
  prefetched(): Promise<void> {
    return this.workers === 0 ? Promise.resolve() : this.idle;
  }

  /** Stop: fetches in flight are aborted, queued prefetches dropped. */
  async close(): Promise<void> {
    this.stop.abort(new Error('upload cache closed'));
    this.queue.length = 0;
    this.queued.clear();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.prefetched();
  }

  private startWorker(): void {
    if (this.workers === 0) this.idle = new Promise((resolve) => (this.wake = resolve));
    this.workers++;
    void (async () => {
      for (let p = this.queue.shift(); p !== undefined; p = this.queue.shift()) {
        this.queued.delete(p);
        if (this.stop.signal.aborted || (this.opts.online && !this.opts.online())) break;
        await this.get(p);
      }
      this.workers--;
      if (this.workers === 0) {
        this.queue.length = 0;
        this.queued.clear();
        this.wake?.();
      }
    })();
  }

  private async read(p: string, anyType: boolean): Promise<UploadAnswer | undefined> {
    const e = this.entries.get(p);
    if (!e) return undefined;
    const image = shownInline(e.contentType);
    // A file kept for a download is never shown as an image (nor fetched again as one).
    if (!image && !anyType) return { kind: 'not_found', reason: `not an image this app shows (${e.contentType})` };
    let body: Buffer;
    try {
      // Asynchronous: a host's event loop (Electron's main process) never waits on the disk.
      body = await readFile(e.file);
    } catch (err) {
      // Removed behind our back: forget it and ask the realm again.
      void this.forget(p, e);
      this.opts.warn?.('an upload kept on disk could not be read', { error: String(err) });
      return undefined;
    }
    this.touch(p, e);
    return { kind: image ? 'image' : 'file', contentType: e.contentType, body, cached: true };
  }

  private async fetchAndKeep(p: string, anyType: boolean): Promise<UploadAnswer> {
    let res: FetchedFile;
    try {
      res = await this.opts.fetch(p, { maxResponseBytes: this.maxFileBytes, signal: this.stop.signal });
    } catch (e) {
      const kind = typeof e === 'object' && e !== null && 'kind' in e ? String(e.kind) : '';
      // Too large is an answer (it will not fit); no answer at all is "cannot be reached".
      if (kind === 'malformed') return { kind: 'not_found', reason: `larger than ${this.maxFileBytes} bytes` };
      return { kind: 'unavailable', reason: e instanceof Error ? e.message : String(e) };
    }
    if (res.status === 429 || res.status >= 500) return { kind: 'unavailable', reason: `the server answered ${res.status}` };
    if (res.status !== 200) return { kind: 'not_found', reason: `the server answered ${res.status}` };
    const type = mediaType(res.headers['content-type']);
    const image = shownInline(type);
    if (!image && !anyType) return { kind: 'not_found', reason: `not an image this app shows (${type || 'no type'})` };
    if (res.body.length > this.maxFileBytes) return { kind: 'not_found', reason: `larger than ${this.maxFileBytes} bytes` };
    const stored = type || 'application/octet-stream';
    await this.keep(p, stored, res.body);
    return { kind: image ? 'image' : 'file', contentType: stored, body: res.body, cached: false };
  }

  private async keep(p: string, contentType: string, body: Buffer): Promise<void> {
    const dir = this.opts.dir;
    if (dir === undefined || body.length > this.maxTotalBytes || this.stop.signal.aborted) return;
    const file = path.join(dir, createHash('sha256').update(p).digest('hex'));
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Written aside and renamed: a crash never leaves half a file under the real name.
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, body, { mode: 0o600 });
      await rename(tmp, file);
      await this.writeMeta(p, { file, contentType, size: body.length, pinned: this.entries.get(p)?.pinned ?? false });
    } catch (e) {
      this.opts.warn?.('an upload could not be kept on disk', { error: e instanceof Error ? e.message : String(e) });
      return;
    }
    const old = this.entries.get(p);
    if (old) {
      this.entries.delete(p);
      this.total -= old.size;
    }
    this.entries.set(p, { file, contentType, size: body.length, pinned: old?.pinned ?? false });
    this.total += body.length;
    // Least recently used first, until the total fits again (the new one, the most recent, and pinned ones stay).
    const evicted: Promise<void>[] = [];
    for (const [old, e] of this.entries) {
      if (this.total <= this.maxTotalBytes) break;
      if (!e.pinned && old !== p) evicted.push(this.forget(old, e));
    }
    // Pinned files leave no room for it: not kept after all.
    const added = this.entries.get(p);
    if (this.total > this.maxTotalBytes && added && !added.pinned) evicted.push(this.forget(p, added));
    await Promise.all(evicted);
  }

  private async forget(p: string, e: Entry): Promise<void> {
    this.entries.delete(p);
    this.total -= e.size;
    try {
      // Meta first: a crash in between leaves a data file without meta, which the next start removes.
      await rm(`${e.file}.json`, { force: true });
      await rm(e.file, { force: true });
    } catch (err) {
      this.opts.warn?.('an evicted upload could not be removed', { error: String(err) });
    }
  }

  private touch(p: string, e: Entry): void {
    this.entries.delete(p);
    this.entries.set(p, e);
    const now = new Date();
    // Recency on disk is a hint for the next start; in memory it is already right.
    utimes(e.file, now, now).catch(() => undefined);
  }

  /** The kept files, oldest use first; anything half-written or unreadable is removed. */
  private load(dir: string): void {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // nothing kept yet
    }
    const found: Array<{ p: string; e: Entry; used: number }> = [];
    const valid = new Set<string>();
    for (const name of names) {
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
      const file = path.join(dir, name.slice(0, -'.json'.length));
      try {
        const meta = metaSchema.parse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
        const st = statSync(file);
        const hashOk = createHash('sha256').update(meta.path).digest('hex') === path.basename(file);
        if (!hashOk || st.size !== meta.size || canonicalUploadPath(meta.path) !== meta.path || meta.type === '') continue;
        found.push({ p: meta.path, e: { file, contentType: meta.type, size: meta.size, pinned: meta.pinned }, used: st.mtimeMs });
        valid.add(path.basename(file));
      } catch {
        // unreadable or half-written: removed below
      }
    }
    for (const name of names) {
      const base = name.replace(/\.json$/, '');
      if (!valid.has(base)) rmSync(path.join(dir, name), { force: true });
    }
    found.sort((a, b) => a.used - b.used);
    for (const f of found) {
      this.entries.set(f.p, f.e);
      this.total += f.e.size;
    }
    // A smaller bound than last time: the oldest go now (synchronously: this is the constructor).
    for (const [p, e] of this.entries) {
      if (this.total <= this.maxTotalBytes) break;
      if (e.pinned) continue;
      this.entries.delete(p);
      this.total -= e.size;
      rmSync(`${e.file}.json`, { force: true });
      rmSync(e.file, { force: true });
    }
  }
}

/** An inline image's or video's `src`, or a link preview's image (Zulip puts it in a `background-image` style). */
const IMG_SRC = /<(?:img|video)\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)')|background-image:\s*url\((?:&quot;|")?([^")&]*)/gi;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'" };

/** The canonical upload paths of the realm's images, videos and link-preview images in a message's rendered HTML (links are not fetched). */
export function uploadImagePaths(html: string, realmUrl: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(IMG_SRC)) {
    const src = (m[1] ?? m[2] ?? m[3] ?? '').replace(/&(amp|quot|apos|lt|gt|#39);/g, (_x, n: string) => ENTITIES[n] ?? '');
    const p = realmUploadPath(src, realmUrl);
    if (p !== undefined) out.add(p);
  }
  return [...out];
}
