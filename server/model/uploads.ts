/**
 * Uploaded files (attachments) and which messages reference them. A message "claims" an upload
 * when its rendered content links `/user_uploads/<path_id>` and the sender owns the file or it is
 * already attached to another message (Zulip's do_claim_attachments, simplified). Edits re-sync
 * the links; files of the editor that lose their last reference are the edit's
 * `detached_uploads`.
 */
import { randomBytes } from 'node:crypto';
import type { ServerState } from '../state.js';
import { sql } from './messages.js';

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
  return sql(srv, 'SELECT id, owner_id, name, path_id, size, create_time, mime_type FROM attachments WHERE id = ?').get(Number(info.lastInsertRowid)) as AttachmentRow;
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
  sql(srv, 'UPDATE messages SET has_attachment = ? WHERE id = ?').run(after.size > 0 ? 1 : 0, messageId);
  return { linked, unlinked };
}

/** Forget a deleted message's attachment links (the files stay, as in Zulip). */
export function unlinkMessageAttachments(srv: ServerState, messageIds: readonly number[]): number[] {
  const out = new Set<number>();
  for (const mid of messageIds) {
    for (const a of sql(srv, 'SELECT attachment_id FROM attachment_messages WHERE message_id = ?').pluck().all(mid) as number[]) out.add(a);
    sql(srv, 'DELETE FROM attachment_messages WHERE message_id = ?').run(mid);
  }
  return [...out];
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
