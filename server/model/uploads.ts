/**
 * Uploaded files (attachments) and which messages reference them. A message "claims" an upload
 * when its rendered content links `/user_uploads/<path_id>` and the sender owns the file or it is
 * already attached to another message (Zulip's do_claim_attachments, simplified). Edits re-sync
 * the links; files of the editor that lose their last reference are the edit's
 * `detached_uploads`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerState } from '../state.js';
import { canAccessMessage, type MessageAccessRow } from './access.js';
import { sql } from '../db/statements.js';
import { emit } from '../events/emit.js';
import type { UserRow } from './users.js';

/** Zulip's path ids start with the realm id; this server has one realm. */
export const REALM_ID = 2;

export interface AttachmentRow {
  id: number;
  owner_id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  mime_type: string;
}

/** Zulip's sanitize_name: NFKC, word characters, dashes for runs of spaces, extension kept. */
export function sanitizeFilename(name: string): string {
  const base = name.normalize('NFKC').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const ext = dot > 0 ? base.slice(dot).replace(/[^\p{L}\p{N}_.-]/gu, '') : '';
  const clean = stem
    .replace(/[^\p{L}\p{N}_\s-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return (clean === '' ? 'uploaded-file' : clean) + ext;
}

export function createUpload(srv: ServerState, ownerId: number, filename: string, mimeType: string, data: Buffer): AttachmentRow {
  const name = sanitizeFilename(filename);
  const pathId = `${REALM_ID}/${randomBytes(1).toString('hex')}/${randomBytes(12).toString('base64url')}/${name}`;
  const info = sql(srv, 'INSERT INTO attachments (owner_id, name, path_id, size, create_time, mime_type, data) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    ownerId,
    filename.split(/[\\/]/).pop() || name,
    pathId,
    data.length,
    srv.clock.now(),
    mimeType || 'application/octet-stream',
    data,
  );
  const a = sql(srv, 'SELECT id, owner_id, name, path_id, size, create_time, mime_type FROM attachments WHERE id = ?').get(Number(info.lastInsertRowid)) as AttachmentRow;
  emitAttachment(srv, a, 'add');
  return a;
}

const ATTACHMENT_COLUMNS = 'id, owner_id, name, path_id, size, create_time, mime_type';

/** Zulip's `upload_space_used`: the bytes of every file uploaded in the organization. */
const uploadSpaceUsed = (srv: ServerState) => sql(srv, 'SELECT coalesce(sum(size), 0) FROM attachments').pluck().get() as number;

/** The `attachment` event to the file's owner (OpenAPI: op add / update / remove). */
function emitAttachment(srv: ServerState, a: AttachmentRow, op: 'add' | 'update' | 'remove'): void {
  const attachment = op === 'remove' ? { id: a.id } : apiAttachment(srv, a);
  emit(srv, [a.owner_id], { type: 'attachment', op, attachment, upload_space_used: uploadSpaceUsed(srv) });
}

/** GET /attachments: the user's files, oldest first, and the organization's upload space used. */
export function listAttachments(srv: ServerState, ownerId: number) {
  const rows = sql(srv, `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE owner_id = ? ORDER BY id`).all(ownerId) as AttachmentRow[];
  return { attachments: rows.map((a) => apiAttachment(srv, a)), upload_space_used: uploadSpaceUsed(srv) };
}

/**
 * DELETE /attachments/{id}: the owner deletes a file (Zulip's remove_attachment); messages keep
 * their links, which stop serving. Someone else's file, or none, is "Invalid attachment".
 */
export function removeAttachment(srv: ServerState, ownerId: number, id: number): boolean {
  const a = sql(srv, `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE id = ? AND owner_id = ?`).get(id, ownerId) as AttachmentRow | undefined;
  if (!a) return false;
  sql(srv, 'DELETE FROM attachment_messages WHERE attachment_id = ?').run(id);
  sql(srv, 'DELETE FROM attachments WHERE id = ?').run(id);
  emitAttachment(srv, a, 'remove');
  return true;
}

export const uploadUrl = (pathId: string) => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

export function getAttachmentByPath(srv: ServerState, pathId: string): (AttachmentRow & { data: Buffer }) | undefined {
  return sql(srv, 'SELECT * FROM attachments WHERE path_id = ?').get(pathId) as (AttachmentRow & { data: Buffer }) | undefined;
}

/**
 * Make the message's attachment links match its (new) rendered content. Returns the attachment
 * ids it linked and unlinked; sets the message's `has_attachment`.
 */
export function syncAttachments(srv: ServerState, messageId: number, rendered: { readonly attachmentPathIds: readonly string[] }): { linked: number[]; unlinked: number[] } {
  const senderId = sql(srv, 'SELECT sender_id FROM messages WHERE id = ?').pluck().get(messageId) as number | undefined;
  const before = new Set(sql(srv, 'SELECT attachment_id FROM attachment_messages WHERE message_id = ?').pluck().all(messageId) as number[]);
  const after = new Set<number>();
  for (const pathId of rendered.attachmentPathIds) {
    const a = sql(srv, 'SELECT id, owner_id FROM attachments WHERE path_id = ?').get(pathId) as { id: number; owner_id: number } | undefined;
    if (!a) continue;
    const claimable = a.owner_id === senderId || before.has(a.id) || !!sql(srv, 'SELECT 1 FROM attachment_messages WHERE attachment_id = ?').get(a.id);
    if (claimable) after.add(a.id);
  }
  const linked = [...after].filter((id) => !before.has(id));
  const unlinked = [...before].filter((id) => !after.has(id));
  for (const id of linked) sql(srv, 'INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)').run(id, messageId);
  for (const id of unlinked) sql(srv, 'DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id = ?').run(id, messageId);
  // The owners see their files' message lists change (Zulip's attachment update event).
  for (const id of [...linked, ...unlinked]) {
    const a = sql(srv, `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE id = ?`).get(id) as AttachmentRow | undefined;
    if (a) emitAttachment(srv, a, 'update');
  }
  sql(srv, 'UPDATE messages SET has_attachment = ? WHERE id = ?').run(after.size > 0 ? 1 : 0, messageId);
  return { linked, unlinked };
}

/** The attachment object of the API (spec "Detached upload"; FL 420: times in milliseconds). */
export function apiAttachment(srv: ServerState, a: AttachmentRow) {
  const messages = sql(srv, 'SELECT m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id WHERE am.attachment_id = ? ORDER BY m.id').all(a.id) as Array<{
    id: number;
    date_sent: number;
  }>;
  return {
    id: a.id,
    name: a.name,
    path_id: a.path_id,
    size: a.size,
    create_time: a.create_time,
    messages: messages.map((m) => ({ date_sent: m.date_sent * 1000, id: m.id })),
  };
}

/**
 * The edit response's `detached_uploads`: of the attachments an edit unlinked, those the actor
 * uploaded that no message references any more.
 */
export function detachedUploads(srv: ServerState, actorId: number, unlinkedAttachmentIds: readonly number[]) {
  const out = [];
  for (const id of unlinkedAttachmentIds) {
    const a = sql(srv, 'SELECT id, owner_id, name, path_id, size, create_time, mime_type FROM attachments WHERE id = ?').get(id) as AttachmentRow | undefined;
    if (!a || a.owner_id !== actorId) continue;
    if (sql(srv, 'SELECT 1 FROM attachment_messages WHERE attachment_id = ?').get(id)) continue;
    out.push(apiAttachment(srv, a));
  }
  return out;
}

/**
 * Zulip's validate_attachment_request: the owner may read a file, and so may anyone who can read
 * a message linking it (received it, or reads the channel's shared history).
 */
export function canReadUpload(srv: ServerState, user: UserRow, a: Pick<AttachmentRow, 'id' | 'owner_id'>): boolean {
  if (a.owner_id === user.id) return true;
  const messages = sql(srv, 'SELECT m.id, m.type, m.channel_id FROM attachment_messages am JOIN messages m ON m.id = am.message_id WHERE am.attachment_id = ?').all(a.id) as MessageAccessRow[];
  return messages.some((m) => canAccessMessage(srv, user, m));
}

/** How long a temporary URL works (Zulip: 60 seconds). */
export const TEMPORARY_URL_SECONDS = 60;
const secrets = new WeakMap<ServerState, Buffer>();
const secretOf = (srv: ServerState) => {
  let s = secrets.get(srv);
  if (!s) secrets.set(srv, (s = randomBytes(32)));
  return s;
};
const sign = (srv: ServerState, data: string) => createHmac('sha256', secretOf(srv)).update(data).digest('base64url');

/**
 * GET /user_uploads/{realm_id}/{path} under /api/v1: a URL that serves the file without
 * authentication for a minute, `/user_uploads/temporary/<token>/<filename>` (Zulip's
 * generate_unauthed_file_access_url: the token is the hex of the signed, timestamped path id).
 */
export function temporaryUploadUrl(srv: ServerState, pathId: string): string {
  const data = `${pathId}:${Math.floor(srv.clock.now() / 1000) + TEMPORARY_URL_SECONDS}`;
  const token = Buffer.from(`${data}:${sign(srv, data)}`, 'utf8').toString('hex').toUpperCase();
  return `/user_uploads/temporary/${token}/${encodeURIComponent(pathId.split('/').pop() ?? '')}`;
}

/** The path id a temporary token grants, or undefined when it is forged, malformed or expired. */
export function pathIdFromToken(srv: ServerState, token: string): string | undefined {
  if (!/^(?:[0-9A-Fa-f]{2}){1,2048}$/.test(token)) return undefined;
  const text = Buffer.from(token, 'hex').toString('utf8');
  const sigAt = text.lastIndexOf(':');
  if (sigAt < 0) return undefined;
  const data = text.slice(0, sigAt);
  const expected = Buffer.from(sign(srv, data));
  const given = Buffer.from(text.slice(sigAt + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const expAt = data.lastIndexOf(':');
  const expires = Number(data.slice(expAt + 1));
  if (!Number.isSafeInteger(expires) || Math.floor(srv.clock.now() / 1000) > expires) return undefined;
  return data.slice(0, expAt);
}

/** Types a browser may show inline; everything else downloads (Zulip's INLINE_MIME_TYPES, roughly). */
const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

/** Response headers for serving an upload: its type, inline or attachment, and no scripting ever. */
export function uploadHeaders(a: Pick<AttachmentRow, 'name' | 'mime_type' | 'size'>): Record<string, string> {
  const type = a.mime_type.toLowerCase().split(';')[0]!.trim();
  const inline = INLINE.test(type);
  const ascii = a.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'content-type': inline ? a.mime_type : 'application/octet-stream',
    'content-length': String(a.size),
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(a.name)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=86400',
  };
}
