/**
 * `GET /uploads/user_uploads/...`: the open account's realm images for the page, from the engine's
 * upload cache (sync/uploads/cache.ts), which fetches them with the account's credentials and keeps
 * them for offline viewing. The page never loads an image from the realm itself, so the CSP's
 * `img-src` stays `'self'`. Behind the Host / Origin checks and the uploads key (`?k=`, derived from
 * the page's secret: server.ts); `Cross-Origin-Resource-Policy: same-origin` keeps other sites from
 * embedding them.
 *
 *   200  the image (only the cache's image types, and mp4 / webm videos; `nosniff`; never stored by the browser, so what
 *        the page shows offline is what the cache holds)
 *   204  not on this device and the realm cannot be reached now: no body, so the page's <img>
 *        fails quietly (a 4xx/5xx would log an error in the console) and it shows its placeholder
 *   404  not an upload path of the realm (traversal included), refused by the realm, not an image
 *
 * `?download=1` (a click on a file link): any type, as `Content-Disposition: attachment` with the
 * file's name (the last path segment), so the browser saves it and never renders it; offline, a file
 * not kept is the same quiet 204 (the page then says it is not available offline).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { attachmentDisposition, canonicalUploadPath, uploadFileName, UPLOAD_ROUTE_PREFIX } from '../../sync/protocol/uploads.js';
import type { UploadAnswer } from '../../sync/uploads/cache.js';

export const isUploadRoute = (rawPath: string) => rawPath.startsWith(`${UPLOAD_ROUTE_PREFIX}/`);

export async function serveUpload(
  req: IncomingMessage,
  res: ServerResponse,
  upload: (realmPath: string) => Promise<UploadAnswer>,
  rawPath: string,
  headers: Record<string, string>,
  download = false,
): Promise<void> {
  // The path exactly as sent (no dot segments resolved): anything not canonical is refused.
  const realmPath = canonicalUploadPath(rawPath.slice(UPLOAD_ROUTE_PREFIX.length));
  const answer: UploadAnswer = realmPath === undefined ? { kind: 'not_found', reason: 'not an upload path' } : await upload(realmPath);
  const base = { ...headers, 'cache-control': 'no-store' };
  if (answer.kind === 'image' || answer.kind === 'file') {
    const disposition = download && realmPath !== undefined ? attachmentDisposition(uploadFileName(realmPath)) : 'inline';
    res.writeHead(200, { ...base, 'content-type': answer.contentType, 'content-length': String(answer.body.length), 'content-disposition': disposition });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
    return;
  }
  if (answer.kind === 'unavailable') {
    res.writeHead(204, base).end();
    return;
  }
  res.writeHead(404, { ...base, 'content-type': 'text/plain; charset=utf-8' }).end('not found');
}
