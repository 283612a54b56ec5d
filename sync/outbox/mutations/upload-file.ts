/**
 * `upload_file` v1: a file uploaded to the realm (`POST /user_uploads`), queued like any other
 * intent so that it works offline (docs/sync-design.md "Uploads").
 *
 * The bytes. The host copies the file into the account's data directory first (durably:
 * sync/uploads/outbox-files.ts) and the row names the copy (`file`); nothing else of the page's
 * is kept. The copy goes when the row is discarded or lands (the upload cache keeps a landed
 * image for reading offline).
 *
 * The created object. The upload is a create under a temporary id (`upload`, `tmp-N`): the URL
 * the server answers is recorded for it (`outbox_temp_ids`), and a send naming the upload reads
 * the URL from there when it is sent (message-send.ts `uploads`): by field, never by rewriting
 * text.
 *
 * Order. The row's entity is the upload itself (`upload:tmp-N`) until a send names it: the send's
 * enqueue moves it into the send's conversation (`entity`), ahead of the send, so the send waits
 * behind it by the outbox's per-entity order (docs/sync-design.md "Per-entity order").
 *
 * Exactly once. A lost answer (timeout, 5xx that is not the server's envelope, a truncated body)
 * is verified by reading the user's files (`GET /attachments`): one with our name and size,
 * uploaded no earlier than the intent (less a minute of clock skew), that no other upload row
 * landed as, is ours; none means it did not land, and the file is sent again.
 */
import * as z from 'zod';
import { getAttachments, uploadFile, type Attachment } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { uploadRowOf } from '../../db/queries/outbox-uploads.js';
import { getRealmLimits } from '../../db/queries/realm.js';
import type { OutboxKind, UploadContext } from '../kinds.js';
import { OutboxIntentError } from '../kinds.js';
import { answer, queuedCommand, seconds } from '../commands.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

export const UPLOAD_FILE_KIND = 'upload_file';
/** Uploads made within this many seconds before the intent still count when verifying (skew). */
const VERIFY_CLOCK_SLACK_S = 60;
/** Zulip's default `max_file_upload_size_mib`, when the realm has not said. */
export const DEFAULT_MAX_FILE_UPLOAD_MIB = 25;

export const uploadFileArgs = z.lazy(() => z.object({
  /** `tmp-N`: what sends name the upload by until its URL is known. */
  upload: z.string().regex(/^tmp-\d+$/),
  /** The copy's id in the account's outbox files (32 hex digits). */
  file: z.string().regex(/^[0-9a-f]{32}$/),
  filename: z.string().min(1).max(255),
  mime_type: z.string().max(255),
  size: z.number().int().nonnegative(),
  /** The entity of the send it was attached to (set when the send is queued). */
  entity: z.string().optional(),
}));
export type UploadFileArgs = z.output<typeof uploadFileArgs>;

/** When the user attached it (UNIX seconds, local clock): an older file of theirs is not this one. */
export const uploadFileBase = z.object({ enqueued_at: z.number().int() });
export type UploadFileBase = z.output<typeof uploadFileBase>;

/** The realm-relative URL of an attachment's file, as `POST /user_uploads` answers it. */
export const attachmentUrl = (pathId: string) => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

/** Seconds since the epoch of an attachment (FL 420 milliseconds; FL 443 seconds). */
const createdSeconds = (a: Attachment) => (a.create_time > 1e11 ? Math.floor(a.create_time / 1000) : a.create_time);

const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name;

/** Whether the server's file is ours by name: as we sent it, or as its sanitised path ends. */
function sameName(a: Attachment, filename: string): boolean {
  if (a.name === baseName(filename)) return true;
  let last: string;
  try {
    last = decodeURIComponent(a.path_id.split('/').pop() ?? '');
  } catch {
    return false;
  }
  // Zulip's sanitize_name keeps word characters and dots, dashes for runs of spaces.
  const loose = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}.]+/gu, '');
  return loose(last) === loose(baseName(filename));
}

function uploadsOf(ctx: { uploads?: UploadContext | undefined }): UploadContext {
  if (!ctx.uploads) throw new Error('no outbox files in this session');
  return ctx.uploads;
}

export const uploadFileKind: OutboxKind<UploadFileArgs, UploadFileBase, 'upload_file'> = {
  kind: UPLOAD_FILE_KIND,
  version: 1,
  argsSchema: uploadFileArgs,
  baseSchema: uploadFileBase,
  describe: (a) => ({ text: `Upload the file “${a.filename}”`, link: null }),
  entityKey: (a) => a.entity ?? `upload:${a.upload}`,
  createsTempIdIn: 'upload',
  async send(conn, a, _b, ctx) {
    const files = uploadsOf(ctx);
    let data: Buffer;
    try {
      data = await files.read(a.file);
    } catch {
      throw new Error(`the copy of “${a.filename}” kept for uploading is gone; attach the file again`);
    }
    const res = await uploadFile(conn, { filename: a.filename, mimeType: a.mime_type, data }, { onBodySent: (sent, total) => files.progress?.(localUploadId(a.upload), sent, total) });
    files.keep(res.url, a.mime_type, data);
    return { createdId: res.url };
  },
  async verify(conn, a, b, ctx) {
    const files = uploadsOf(ctx);
    const { attachments } = await getAttachments(conn);
    const claimed = files.landedUrls();
    const found = attachments
      .filter((x) => x.size === a.size && sameName(x, a.filename) && createdSeconds(x) >= b.enqueued_at - VERIFY_CLOCK_SLACK_S)
      .filter((x) => !claimed.has(attachmentUrl(x.path_id)))
      .sort((x, y) => x.id - y.id)[0];
    if (!found) return 'not_applied';
    const url = attachmentUrl(found.path_id);
    // Read before answering: once the row settles its copy is removed.
    const data = await files.read(a.file).catch(() => undefined);
    if (data) files.keep(url, a.mime_type, data);
    return { status: 'applied', createdId: url };
  },
};

/** The row that uploads `tmp` (any state) and its args, if there is one that parses. */
export function uploadOf(db: LocalDb, tmp: string): { id: number; state: string; args: UploadFileArgs } | undefined {
  const row = uploadRowOf(db, UPLOAD_FILE_KIND, tmp);
  const args = uploadFileArgs.safeParse(row ? JSON.parse(row.args) : undefined);
  return row && args.success ? { id: row.id, state: row.state, args: args.data } : undefined;
}

/** A send's reference to the upload queued as `tmp` (refused: no such upload, or discarded). */
export function attachedUpload(db: LocalDb, tmp: string): { upload: string; name: string } {
  const up = uploadOf(db, tmp);
  if (!up) throw new OutboxIntentError(`no file queued as upload ${tmp}`);
  if (up.state === 'discarded') throw new OutboxIntentError(`“${up.args.filename}” was removed from the outbox: attach it again`);
  return { upload: tmp, name: up.args.filename };
}

/** The negative local id the page holds for an upload queued as `tmp-N`. */
export const localUploadId = (tmp: string): number => -Number(tmp.slice('tmp-'.length));
export const uploadTempOf = (localId: number): string => `tmp-${-localId}`;

/**
 * The contract's command: queue the upload of a file the host has copied (`file`, the id its
 * staging answered). `upload_id` is what a send names it by (negative: a local id).
 */
export const uploadFileCommands = {
  uploadFile: queuedCommand({
    request: z.lazy(() => z.object({
      file: z.string().regex(/^[0-9a-f]{32}$/),
      filename: z.string().min(1).max(255),
      mime_type: z.string().max(255),
      size: z.number().int().nonnegative(),
    })),
    response: z.lazy(() => enqueuedSchema.extend({ upload_id: z.number().int().negative() })),
    intent(r, ctx) {
      const mib = getRealmLimits(ctx.db).maxFileUploadSizeMib ?? DEFAULT_MAX_FILE_UPLOAD_MIB;
      if (r.size > mib * 1024 * 1024) throw new OutboxIntentError(`“${r.filename}” is larger than this organization's limit of ${mib} MiB per file.`);
      const tmp = ctx.outbox.newTempId();
      const args: UploadFileArgs = { upload: tmp, file: r.file, filename: baseName(r.filename), mime_type: r.mime_type, size: r.size };
      const res = ctx.outbox.enqueue(uploadFileKind, args, { enqueued_at: seconds(ctx.outbox.now()) });
      return { ...answer(res), upload_id: localUploadId(tmp) };
    },
  }),
};
