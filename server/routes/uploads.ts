/**
 * File uploads: POST /user_uploads (multipart, one file) → `{uri, url, filename}` (`uri` is the
 * deprecated alias of `url`, FL 272). Files are stored in the database; messages link them with
 * `/user_uploads/<path_id>` (see model/uploads.ts for attachment tracking).
 */
import { badRequest } from '../http/errors.js';
import { createUpload, uploadUrl } from '../model/uploads.js';
import { route, type ApiRouter } from './context.js';

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
}
