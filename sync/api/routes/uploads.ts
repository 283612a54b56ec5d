/**
 * Uploaded files: `GET /user_uploads/{realm_id_str}/{filename}` (OpenAPI get-file-temporary-url),
 * a URL that serves the file without authentication for a short while (60 s on Zulip), for
 * handing a file to something that cannot send our credentials (a browser, a media player).
 */
import { z } from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { endpoint, responseTable, send } from '../operation.js';
import { success } from '../schemas/envelope.js';

/** `url` is relative to the realm URL: `/user_uploads/temporary/<token>[/<filename>]`. */
export const getFileTemporaryUrlResponse = success({ url: z.string() });

const fileTemporaryUrl = endpoint({
  method: 'GET',
  path: '/user_uploads/{realm_id_str}/{filename}',
  schema: getFileTemporaryUrlResponse,
  // The filename keeps its `/` separators (`ab/.../name.pdf`).
  keepSlashes: true,
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const uploadResponses = responseTable(fileTemporaryUrl);

const UPLOAD_PATH = /^\/user_uploads\/(\d+)\/(.+)$/;

/**
 * GET /user_uploads/{realm_id_str}/{filename}: a temporary, unauthenticated URL for an uploaded
 * file. `url` is the file's link as messages carry it (`/user_uploads/2/ab/.../name.pdf`, or the
 * same under the realm URL); its percent-encoding is normalised.
 */
export function getFileTemporaryUrl(conn: ApiConnection, args: { url: string }, opts: RequestOptions = {}) {
  let path = args.url;
  if (path.startsWith(`${conn.realmUrl}/`)) path = path.slice(conn.realmUrl.length);
  const m = UPLOAD_PATH.exec(path.split(/[?#]/)[0]!);
  if (!m) throw new RangeError(`not an uploaded file's URL: ${args.url}`);
  let segments: string[];
  try {
    segments = m[2]!.split('/').map((s) => decodeURIComponent(s));
  } catch {
    throw new RangeError(`not an uploaded file's URL (bad percent-encoding): ${args.url}`);
  }
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw new RangeError(`not an uploaded file's URL: ${args.url}`);
  return send(conn, fileTemporaryUrl, { path: { realm_id_str: m[1]!, filename: segments.join('/') } }, opts);
}
