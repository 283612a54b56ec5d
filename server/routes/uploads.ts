/**
 * File uploads.
 *
 *   POST /api/v1/user_uploads                   multipart, one file → `{uri, url, filename}` (`uri`
 *                                               is the deprecated alias of `url`, FL 272)
 *   GET  /api/v1/user_uploads/{realm}/{path}    → `{url}`: a temporary URL that needs no auth
 *   GET  /user_uploads/{realm}/{path}           the file, for the owner or anyone who can read a
 *                                               message linking it; HTTP Basic with the API key
 *                                               (Zulip's `override_api_url_scheme`), outside /api/v1
 *   GET  /user_uploads/temporary/{token}/{name} the file, no auth, for a minute after the token
 *
 *   GET    /api/v1/attachments                  → `{attachments, upload_space_used}`: the user's files
 *   DELETE /api/v1/attachments/{attachment_id}  the owner deletes a file ("Invalid attachment" else)
 *
 * Files are stored in the database; messages link them with `/user_uploads/<path_id>` (see
 * model/uploads.ts for attachment tracking).
 */
import { badRequest, JsonableError } from '../http/errors.js';
import { RawResponse } from '../http/raw.js';
import {
  canReadUpload,
  createUpload,
  getAttachmentByPath,
  listAttachments,
  removeAttachment,
  pathIdFromToken,
  REALM_ID,
  temporaryUploadUrl,
  uploadHeaders,
  uploadUrl,
} from '../model/uploads.js';
import type { UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { pathId as pathParam, publicRoute, route, type ApiRouter } from './context.js';

const fileNotFound = () => new JsonableError('BAD_REQUEST', 'File not found', 404);

/** The attachment a `{realm_id}/{path}` pair names, if this user may read it. */
function readableUpload(srv: ServerState, user: UserRow, realmId: string, path: string) {
  if (realmId !== String(REALM_ID)) throw fileNotFound();
  const a = getAttachmentByPath(srv, `${realmId}/${path}`);
  if (!a) throw fileNotFound();
  if (!canReadUpload(srv, user, a)) throw new JsonableError('BAD_REQUEST', 'You are not authorized to view this file.', 403);
  return a;
}

export function registerUploadRoutes(r: ApiRouter): void {
  route(r, 'POST', '/user_uploads', ({ srv, user, params }) => {
    const files = params.files;
    if (files.length === 0) throw badRequest('You must specify a file to upload');
    if (files.length > 1) throw badRequest('You may only upload one file at a time');
    const f = files[0]!;
    // The multipart field name is free (Zulip reads request.FILES); mark it read.
    params.has(f.field);
    const limit = srv.config.maxFileUploadMib * 1024 * 1024;
    if (f.data.length > limit) {
      throw badRequest(`File is larger than this server's configured maximum upload size (${srv.config.maxFileUploadMib} MiB).`);
    }
    const a = createUpload(srv, user.id, f.filename, f.mimeType, f.data);
    const url = uploadUrl(a.path_id);
    return { uri: url, url, filename: a.name };
  });

  route(r, 'GET', '/attachments', ({ srv, user }) => listAttachments(srv, user.id));

  route(r, 'DELETE', '/attachments/:attachment_id', (ctx) => {
    if (!removeAttachment(ctx.srv, ctx.user.id, pathParam(ctx, 'attachment_id'))) throw badRequest('Invalid attachment');
  });

  route(r, 'GET', '/user_uploads/:realm_id_str/*filename', ({ srv, user, path }) => {
    const a = readableUpload(srv, user, path.realm_id_str ?? '', path.filename ?? '');
    return { url: temporaryUploadUrl(srv, a.path_id) };
  });
}

/** The file-serving routes, matched on the path from the server's root (not under /api/v1). */
export function registerUploadFileRoutes(r: ApiRouter): void {
  publicRoute(r, 'GET', '/user_uploads/temporary/:token/:filename', ({ srv, path }) => {
    const pathId = pathIdFromToken(srv, path.token ?? '');
    if (pathId === undefined) throw badRequest('Invalid token');
    if (pathId.split('/').pop() !== path.filename) throw badRequest('Invalid filename');
    const a = getAttachmentByPath(srv, pathId);
    if (!a) throw fileNotFound();
    return new RawResponse(a.data, uploadHeaders(a));
  });

  route(r, 'GET', '/user_uploads/:realm_id_str/*path', ({ srv, user, path }) => {
    const a = readableUpload(srv, user, path.realm_id_str ?? '', path.path ?? '');
    return new RawResponse(a.data, uploadHeaders(a));
  });
}
