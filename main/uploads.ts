/**
 * `zulip-upload://realm/user_uploads/...`: the open account's realm images for the page, from the
 * engine's upload cache (sync/uploads/cache.ts, the same module the browser-mode host serves), which
 * fetches them with the account's credentials and keeps them for offline viewing. The page never
 * loads an image from the realm, so the CSP's `img-src` is `'self'` and this scheme only.
 *
 * The scheme is registered privileged before `ready` (standard, so URLs parse with a host and a
 * path; secure, so the page treats it like https; stream, so a `<video>` plays from it (Zulip's
 * inline videos); no CSP bypass, no fetch/CORS, no service workers),
 * then handled on the default session:
 *   200  the image (the cache's image types only, and mp4 / webm videos; nosniff; not stored by Chromium's cache)
 *   204  not on this device and the realm cannot be reached: the <img> fails quietly (no console
 *        error) and the page shows its placeholder
 *   403  a request web content of another origin made (the page is file://, or the dev server)
 *   404  not an upload path of the realm (traversal included), refused by the realm, not an image
 *   405  anything but GET / HEAD
 * `zulip-upload://realm/outbox-files/<id>` shows an image the user attached from the device's copy
 * (the compose preview), by its first bytes only (PNG, JPEG, GIF, WebP); anything else 404.
 */
import { protocol } from 'electron';
import { canonicalUploadPath, UPLOAD_SCHEME, UPLOAD_SCHEME_HOST } from '../sync/protocol/uploads.js';
import { OUTBOX_FILES_ROUTE } from '../sync/protocol/browser-host.js';
import { sniffImage } from '../host/browser/outbox-files.js';
import type { UploadAnswer } from '../sync/uploads/cache.js';

const PREFIX = `${UPLOAD_SCHEME}://${UPLOAD_SCHEME_HOST}/`;
const STAGED = new RegExp(`^${OUTBOX_FILES_ROUTE}/([0-9a-f]{32})$`);

/** Before `app.whenReady()`: Electron accepts privileged schemes only then. */
export function registerUploadScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: UPLOAD_SCHEME, privileges: { standard: true, secure: true, bypassCSP: false, supportFetchAPI: false, corsEnabled: false, allowServiceWorkers: false, stream: true } },
  ]);
}

export interface UploadHandlerOptions {
  readonly upload: (realmPath: string) => Promise<UploadAnswer>;
  /** A file staged for upload (`/outbox-files/<id>`), for the compose preview: its bytes, if kept. */
  readonly staged?: (file: string) => Promise<Buffer | undefined>;
  /** The dev server's origin when the page comes from it (unpackaged only); else the page is file://. */
  readonly devOrigin?: string | undefined;
}

/** Who may load uploads: our file:// page (an opaque or `file://` origin), the dev server, or the browser itself. */
export function initiatorAllowed(initiator: string | undefined, devOrigin: string | undefined): boolean {
  if (initiator === undefined || initiator === 'null' || initiator === 'file://') return true;
  return devOrigin !== undefined && initiator === devOrigin;
}

const headers = (extra: Record<string, string> = {}) => ({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });

/** The scheme's answer to one request (exported for tests; `handleUploads` wires it). */
export async function answerUpload(request: Request, opts: UploadHandlerOptions): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed', { status: 405, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) });
  // Electron adds where the request came from; it is not the page's to set.
  const initiator = (request as Request & { initiatorOrigin?: unknown }).initiatorOrigin;
  if (!initiatorAllowed(typeof initiator === 'string' ? initiator : undefined, opts.devOrigin)) {
    return new Response('forbidden', { status: 403, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) });
  }
  const raw = request.url.startsWith(PREFIX) ? request.url.slice(PREFIX.length - 1).split(/[?#]/)[0]! : '';
  const staged = STAGED.exec(raw)?.[1];
  if (staged !== undefined && opts.staged) {
    // An image the user attached, shown from the device's copy (PNG, JPEG, GIF, WebP only).
    const bytes = await opts.staged(staged);
    const type = bytes && sniffImage(bytes);
    if (!bytes || !type) return new Response('not found', { status: 404, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) });
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), { status: 200, headers: headers({ 'content-type': type, 'content-length': String(bytes.length) }) });
  }
  const realmPath = canonicalUploadPath(raw);
  const answer: UploadAnswer = realmPath === undefined ? { kind: 'not_found', reason: 'not an upload path' } : await opts.upload(realmPath);
  if (answer.kind === 'image') {
    const body = request.method === 'HEAD' ? null : new Uint8Array(answer.body);
    return new Response(body, { status: 200, headers: headers({ 'content-type': answer.contentType, 'content-length': String(answer.body.length) }) });
  }
  if (answer.kind === 'unavailable') return new Response(null, { status: 204, headers: headers() });
  return new Response('not found', { status: 404, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) });
}

/** Serve the scheme on the default session; returns the undo. */
export function handleUploads(opts: UploadHandlerOptions): () => void {
  protocol.handle(UPLOAD_SCHEME, (request) =>
    answerUpload(request, opts).catch(
      (e: unknown) => new Response(`internal error: ${e instanceof Error ? e.message : String(e)}`, { status: 500, headers: headers({ 'content-type': 'text/plain; charset=utf-8' }) }),
    ),
  );
  return () => protocol.unhandle(UPLOAD_SCHEME);
}
