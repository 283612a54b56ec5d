/**
 * Uploading a file: `POST /user_uploads` (OpenAPI upload-file), multipart with one file, answers
 * its `url` (relative to the realm). The user's files: `GET /attachments` (get-attachments) and
 * `DELETE /attachments/{attachment_id}` (remove-attachment).
 *
 * Uploaded files: `GET /user_uploads/{realm_id_str}/{filename}` (OpenAPI get-file-temporary-url),
 * a URL that serves the file without authentication for a short while (60 s on Zulip), for
 * handing a file to something that cannot send our credentials (a browser, a media player).
 */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { attachment } from '../schemas/message.js';
import { randomBytes } from 'node:crypto';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';

/** `url` is relative to the realm URL: `/user_uploads/temporary/<token>[/<filename>]`. */
export const getFileTemporaryUrlResponse = z.lazy(() => success({ url: z.string() }));

const fileTemporaryUrl = endpoint({
  method: 'GET',
  path: '/user_uploads/{realm_id_str}/{filename}',
  schema: getFileTemporaryUrlResponse,
  // The filename keeps its `/` separators (`ab/.../name.pdf`).
  keepSlashes: true,
});

/** `url` is the file's link as messages carry it; `uri` its deprecated alias (FL 272). */
export const uploadFileResponse = z.lazy(() => success({ url: z.string().optional(), uri: z.string().optional(), filename: z.string().optional() }).refine(
  (r) => typeof (r.url ?? r.uri) === 'string',
  'neither url nor uri',
));

export const getAttachmentsResponse = z.lazy(() => success({ attachments: z.array(attachment), upload_space_used: int.optional() }));

/** GET /attachments: the files the user uploaded. */
export const getAttachments = operation({ method: 'GET', path: '/attachments', schema: getAttachmentsResponse });

/** DELETE /attachments/{attachment_id}: delete one of the user's files. */
export const removeAttachment = operation({
  method: 'DELETE',
  path: '/attachments/{attachment_id}',
  schema: emptySuccess,
  request: (args: { attachmentId: number }) => ({ path: { attachment_id: args.attachmentId } }),
});

const uploadFileEndpoint = endpoint({ method: 'POST', path: '/user_uploads', schema: uploadFileResponse });

/** A quoted multipart parameter: no quote, backslash or line break may end it early. */
const quoted = (s: string) => s.replace(/[\r\n"\\]/g, '_');

/** One file as `multipart/form-data` (RFC 7578): the body `POST /user_uploads` reads. */
export function multipartFile(file: { filename: string; mimeType: string; data: Buffer }): { contentType: string; data: Buffer } {
  const boundary = `----zulip-offline-${randomBytes(12).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}\r\n` +
    `Content-Type: ${quoted(file.mimeType || 'application/octet-stream')}\r\n\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat([Buffer.from(head, 'utf8'), file.data, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]) };
}

/** The least time an upload is given: the normal deadline, or 100 KB/s for a big file. */
const uploadTimeoutMs = (conn: ApiConnection, bytes: number) => Math.max(conn.timeoutMs, Math.ceil(bytes / 100)); // bytes / (100 bytes/ms)

/** POST /user_uploads: upload one file; answers its URL relative to the realm (`/user_uploads/…`). */
export async function uploadFile(conn: ApiConnection, file: { filename: string; mimeType: string; data: Buffer }, opts: RequestOptions = {}): Promise<{ url: string; filename: string | undefined }> {
  const res = await send(conn, uploadFileEndpoint, { body: multipartFile(file) }, { timeoutMs: uploadTimeoutMs(conn, file.data.length), ...opts });
  const url = res.url ?? res.uri ?? '';
  return { url: url.startsWith(`${conn.realmUrl}/`) ? url.slice(conn.realmUrl.length) : url, filename: res.filename };
}

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const uploadResponses = responseTable(fileTemporaryUrl, getAttachments, removeAttachment, uploadFileEndpoint);

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
