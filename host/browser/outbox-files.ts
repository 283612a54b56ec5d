/**
 * `/outbox-files`: the bytes of files the user attaches, from the page to the engine
 * (sync/service/engine-service.ts `stageUpload`), and back for the compose preview.
 *
 *   POST /outbox-files          the file's bytes as the body; only our page: an Origin of this host
 *                               (required) and the page's secret in `X-Zulip-Offline-Secret` (which
 *                               no other page can read, and which a cross-site form cannot set);
 *                               answers the contract's envelope, `{ok, value: {file, size}}`
 *   GET  /outbox-files/<id>?k=  a staged image (PNG, JPEG, GIF, WebP by their first bytes; anything
 *                               else 404), behind the uploads key like `/uploads/...`
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OUTBOX_FILES_ROUTE } from '../../sync/protocol/browser-host.js';
import type { RpcResult } from '../../sync/protocol/rpc.js';

/** The most a page may post at once (the realm's own limit is checked by the engine). */
export const MAX_STAGED_BYTES = 256 * 1024 * 1024;

export const isOutboxFilesRoute = (rawPath: string) => rawPath === OUTBOX_FILES_ROUTE || rawPath.startsWith(`${OUTBOX_FILES_ROUTE}/`);

/** The body, or undefined past `max` bytes (reading stops there). */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function stageFromPage(req: IncomingMessage, res: ServerResponse, stage: (bytes: Buffer) => RpcResult, headers: Record<string, string>): Promise<void> {
  const body = await readBody(req, MAX_STAGED_BYTES);
  const result: RpcResult = body === undefined ? { ok: false, error: { code: 'INVALID_REQUEST', message: `a file may be at most ${MAX_STAGED_BYTES / 1024 / 1024} MiB` } } : stage(body);
  res.writeHead(200, { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(result));
}

/** The image type of these bytes by their signature (only types the page may show), if any. */
export function sniffImage(b: Buffer): string | undefined {
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

export async function serveStaged(req: IncomingMessage, res: ServerResponse, read: (id: string) => Promise<Buffer | undefined>, rawPath: string, headers: Record<string, string>): Promise<void> {
  const id = rawPath.slice(OUTBOX_FILES_ROUTE.length + 1);
  const bytes = /^[0-9a-f]{32}$/.test(id) ? await read(id) : undefined;
  const type = bytes && sniffImage(bytes);
  if (!bytes || !type) return void res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('not found');
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(bytes.length), 'cache-control': 'no-store', 'content-disposition': 'inline' });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
