/**
 * Keeps the raw Markdown of the signed-in user's own editable messages on the device, so Edit
 * opens offline with exactly the server's text (and the queued edit carries that text's hash).
 *
 *   refreshOwnRaw   after the session goes live: the user's newest messages still inside the
 *                   realm's edit window (or the newest RECENT when editing has no time limit),
 *                   fetched with apply_markdown=false in one request, only if some are missing
 *   rawForEdit      what Edit starts from: a pending edit's text (what the user sees), else the
 *                   cache, else the server (stored for next time); offline and unknown, a clear
 *                   reason instead of a generic error
 */
import { getMessages, narrowTerm, type ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { getStoredMessage } from '../db/queries/messages.js';
import { ownIdsWithoutRaw } from '../db/queries/message-rows.js';
import { newestLiveArgs } from '../db/queries/outbox.js';
import { getRawContent, putRawContent } from '../db/queries/raw.js';
import { getRealmEditingSettings } from '../db/queries/realm.js';
import { getAccount } from '../db/queries/state.js';
import { CONTENT_EDIT_KIND, contentEditArgs, readRawContent } from '../outbox/mutations/message-content-edit.js';

/** Own messages considered per refresh: one request's worth. */
export const RECENT = 200;

/** The user's cached own messages (newest first) whose raw text the cache lacks, inside the edit window. */
function missingOwn(db: LocalDb, nowMs: number): number[] {
  const self = getAccount(db)?.user_id ?? undefined;
  if (self === undefined) return [];
  const limit = getRealmEditingSettings(db).contentEditLimitSeconds;
  const since = limit !== null && limit > 0 ? Math.floor(nowMs / 1000) - limit : 0;
  return ownIdsWithoutRaw(db, self, since, RECENT);
}

/** Fetch and store the raw text of the user's own recent editable messages. Returns how many were stored. */
export async function refreshOwnRaw(conn: ApiConnection, db: LocalDb, nowMs: number): Promise<number> {
  if (missingOwn(db, nowMs).length === 0) return 0;
  const limit = getRealmEditingSettings(db).contentEditLimitSeconds;
  const since = limit !== null && limit > 0 ? Math.floor(nowMs / 1000) - limit : 0;
  const res = await getMessages(conn, { anchor: 'newest', num_before: RECENT, num_after: 0, narrow: [narrowTerm.sender(conn.email)], apply_markdown: false, allow_empty_topic_name: true });
  const fresh = res.messages.filter((m) => m.timestamp >= since);
  db.transaction(() => {
    for (const m of fresh) putRawContent(db, m.id, m.content, nowMs);
  })();
  return fresh.length;
}

export type RawForEdit = { readonly raw_content: string; readonly source: 'pending' | 'cache' | 'server' } | { readonly unknown: string };

/** The text of a live content-edit row of the message, if one is pending. */
function pendingEdit(db: LocalDb, messageId: number): string | undefined {
  const args = newestLiveArgs(db, `message:${messageId}`, CONTENT_EDIT_KIND);
  if (typeof args !== 'string') return undefined;
  const a = contentEditArgs.safeParse(JSON.parse(args));
  return a.success ? a.data.content : undefined;
}

/** What Edit starts from; `online` false: never touch the network. */
export async function rawForEdit(conn: ApiConnection, db: LocalDb, messageId: number, online: boolean, nowMs: number): Promise<RawForEdit> {
  const pending = pendingEdit(db, messageId);
  if (pending !== undefined) return { raw_content: pending, source: 'pending' };
  const cached = getRawContent(db, messageId);
  if (cached !== undefined) return { raw_content: cached, source: 'cache' };
  if (!online) {
    const m = getStoredMessage(db, messageId);
    const self = getAccount(db)?.user_id ?? undefined;
    const why =
      m && self !== undefined && m.sender_id !== self
        ? 'This message is not yours, and its original text is not on this device: editing it needs a connection to the server.'
        : 'The original text of this message is not on this device (it is older than what the app keeps for editing): editing it needs a connection to the server.';
    return { unknown: why };
  }
  const raw = await readRawContent(conn, messageId);
  putRawContent(db, messageId, raw, nowMs);
  return { raw_content: raw, source: 'server' };
}
