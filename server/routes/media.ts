/**
 * Outside /api/v1, as in Zulip: the image proxy (`GET /external_content/{digest}/{hex}`, public
 * like Zulip's camo: the HMAC is the permission) and uploaded avatars
 * (`GET /user_avatars/{realm}/{file}`, public like Zulip's local storage serves them).
 */
import { JsonableError } from '../http/errors.js';
import { RawResponse } from '../http/raw.js';
import { avatarImage, verifyCamo } from '../model/media.js';
import { fetchOutbound, OutboundError } from '../model/outbound.js';
import { REALM_ID } from '../model/uploads.js';
import { publicRoute, type ApiRouter } from './context.js';

/** go-camo's default size cap (5 MiB; the deadline is the server's `outboundTimeoutMs`). No SVG (script), as Zulip's camo. */
export const CAMO_MAX_BYTES = 5 * 1024 * 1024;
const PROXIED_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);

const served = (body: Buffer, type: string) =>
  new RawResponse(body, { 'content-type': type, 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'public, max-age=86400' });

export function registerMediaRoutes(r: ApiRouter): void {
  publicRoute(
    r,
    'GET',
    '/external_content/:digest/:hex',
    async ({ srv, path }) => {
      const url = verifyCamo(srv, path.digest ?? '', path.hex ?? '');
      if (url === undefined) throw new JsonableError('BAD_REQUEST', 'Invalid signature', 403);
      let got;
      try {
        got = await fetchOutbound(url, { maxBytes: CAMO_MAX_BYTES, timeoutMs: srv.config.outboundTimeoutMs, accept: 'image/*' });
      } catch (e) {
        if (e instanceof OutboundError) throw new JsonableError('BAD_REQUEST', `The image could not be fetched: ${e.message}`, 502);
        throw e;
      }
      if (got.status !== 200) throw new JsonableError('BAD_REQUEST', `The image's site answered ${got.status}`, 404);
      if (!PROXIED_TYPES.has(got.contentType)) throw new JsonableError('BAD_REQUEST', 'Not an image', 415);
      return served(got.body, got.contentType);
    },
    { async: true },
  );
  publicRoute(r, 'GET', '/user_avatars/:realm_id_str/:file', ({ srv, path }) => {
    const image = path.realm_id_str === String(REALM_ID) ? avatarImage(srv, path.file ?? '') : undefined;
    if (!image) throw new JsonableError('BAD_REQUEST', 'File not found', 404);
    return served(image, 'image/png');
  });
}
