/**
 * The realm's custom emoji, as Zulip's local storage keeps them: each image served (without
 * authentication, like Zulip's nginx) at `/user_avatars/<realm id>/emoji/images/<id>.<ext>`, listed
 * by id in GET /realm/emoji and register's `realm_emoji`, usable as `:name:` in messages (before a
 * Unicode emoji of the same name, as in Zulip) and as `realm_emoji` reactions (code = id).
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import { sql } from '../db/statements.js';
import type { ServerState } from '../state.js';
import { REALM_ID } from './uploads.js';
import { activeUserIds } from './users.js';

/** A custom emoji (OpenAPI `RealmEmoji`), keyed by its id in GET /realm/emoji and register. */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

interface Row {
  id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  deactivated: number;
}

/** Image types Zulip accepts for custom emoji (no SVG). */
const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/gif': 'gif', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
/** Zulip's `max_emoji_file_size_mib` default. */
const MAX_BYTES = 5 * 1024 * 1024;

export const realmEmojiUrl = (fileName: string) => `/user_avatars/${REALM_ID}/emoji/images/${encodeURIComponent(fileName)}`;

const api = (r: Row): RealmEmoji => ({
  id: String(r.id),
  name: r.name,
  source_url: realmEmojiUrl(r.file_name),
  still_url: null,
  deactivated: r.deactivated !== 0,
  author_id: r.author_id,
});

/** Every custom emoji, deactivated ones included, by id. */
export function realmEmoji(srv: ServerState): Record<string, RealmEmoji> {
  const rows = sql(srv, 'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji ORDER BY id').all() as Row[];
  return Object.fromEntries(rows.map((r) => [String(r.id), api(r)]));
}

/** The active custom emoji called `name`. */
export function activeRealmEmoji(srv: ServerState, name: string): RealmEmoji | undefined {
  const r = sql(srv, 'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji WHERE name = ? AND deactivated = 0').get(name) as Row | undefined;
  return r && api(r);
}

/** Zulip's check_valid_emoji_name: lower-case letters, digits, `_` and `-` (not at either end). */
function checkName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (name.length > 60) throw badRequest('Emoji name is too long');
  if (!/^[0-9a-z]([0-9a-z_-]*[0-9a-z])?$/.test(name)) {
    throw badRequest('Emoji names must contain only lowercase alphanumeric characters, dashes, and underscores.');
  }
}

/** POST /realm/emoji/{emoji_name}: stores the image and tells everyone the new set (`realm_emoji` update). */
export function addRealmEmoji(srv: ServerState, authorId: number, name: string, file: { mimeType: string; data: Buffer }): RealmEmoji {
  checkName(name);
  if (sql(srv, 'SELECT 1 FROM realm_emoji WHERE name = ? AND deactivated = 0').get(name)) throw badRequest('A custom emoji with this name already exists.');
  const ext = EXTENSIONS[file.mimeType.toLowerCase()];
  if (ext === undefined) throw badRequest('Invalid image format');
  if (file.data.length > MAX_BYTES) throw badRequest('Uploaded file is larger than the allowed limit of 5 MiB');
  sql(srv, 'DELETE FROM realm_emoji WHERE name = ? AND deactivated = 1').run(name);
  const id = Number(sql(srv, "INSERT INTO realm_emoji (name, author_id, file_name, mime_type, data) VALUES (?, ?, '', ?, ?)").run(name, authorId, file.mimeType, file.data).lastInsertRowid);
  sql(srv, 'UPDATE realm_emoji SET file_name = ? WHERE id = ?').run(`${id}.${ext}`, id);
  emit(srv, activeUserIds(srv), { type: 'realm_emoji', op: 'update', realm_emoji: realmEmoji(srv) });
  return realmEmoji(srv)[String(id)]!;
}

/** The image `/user_avatars/<realm>/emoji/images/<file>` names, if any. */
export function realmEmojiImage(srv: ServerState, fileName: string): { mimeType: string; data: Buffer } | undefined {
  const r = sql(srv, 'SELECT mime_type, data FROM realm_emoji WHERE file_name = ?').get(fileName) as { mime_type: string; data: Buffer } | undefined;
  return r && { mimeType: r.mime_type, data: r.data };
}
