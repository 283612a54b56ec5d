/**
 * Keeps the raw Markdown of the signed-in user's own editable messages on the device, so Edit
 * opens offline with exactly the server's text (and the queued edit carries that text's hash).
 * Which messages count as editable, and the disk budget, are `raw-keep.ts`'s.
 *
 *   refreshOwnRaw   after the session goes live and after a view fetched a page: the user's own
 *                   cached messages the policy keeps and the table lacks (newest first, up to the
 *                   budget's row count), fetched with apply_markdown=false by id in requests of
 *                   PAGE; then the table is trimmed to the budget, oldest first
 *   rawForEdit      what Edit starts from: a pending edit's text (what the user sees), else the
 *                   cache, else the server (stored for next time); offline and unknown, a clear
 *                   reason instead of a generic error: the server's own refusal where it would
 *                   refuse, else that the text is not on this device
 */
import { getMessages, narrowTerm, type ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { getStoredMessage } from '../db/queries/messages.js';
import { ownIdsWithoutRaw } from '../db/queries/message-rows.js';
import { newestLiveArgs } from '../db/queries/outbox.js';
import { getRawContent, putRawContent, trimRawContent } from '../db/queries/raw.js';
import { getRealmEditingSettings } from '../db/queries/realm.js';
import { getAccount } from '../db/queries/state.js';
import { getUser } from '../db/queries/users.js';
import { CONTENT_EDIT_KIND, contentEditArgs, readRawContent } from '../outbox/mutations/message-content-edit.js';
import { RAW_BUDGET, rawKeepPolicy, serverWouldRefuse, type EditRules } from './raw-keep.js';

/** Messages per request: the spec's recommended maximum for GET /messages. */
export const PAGE = 1000;

/** The rules that decide what the signed-in user may edit, from the stored realm and user. */
export function editRules(db: LocalDb): EditRules {
  const s = getRealmEditingSettings(db);
  const self = getAccount(db)?.user_id ?? undefined;
  return { allowEditing: s.allowMessageEditing, limitSeconds: s.contentEditLimitSeconds, role: self === undefined ? undefined : getUser(db, self)?.user.role };
}

/** Fetch and store the raw text of the user's own editable messages the device lacks. Returns how many were stored. */
export async function refreshOwnRaw(conn: ApiConnection, db: LocalDb, nowMs: number): Promise<number> {
  const self = getAccount(db)?.user_id ?? undefined;
  const keep = rawKeepPolicy(editRules(db), nowMs);
  if (self === undefined || !keep.keep) return 0;
  const missing = ownIdsWithoutRaw(db, self, keep.sinceSeconds, RAW_BUDGET.rows);
  const wanted = new Set(missing);
  let stored = 0;
  const store = (messages: readonly { id: number; content: string }[]): void => {
    db.transaction(() => {
      for (const m of messages) {
        if (!wanted.delete(m.id)) continue;
        putRawContent(db, m.id, m.content, nowMs);
        stored++;
      }
    })();
  };
  const format = { apply_markdown: false, allow_empty_topic_name: true } as const;
  if (conn.supports(300)) {
    for (let i = 0; i < missing.length; i += PAGE) {
      store((await getMessages(conn, { message_ids: missing.slice(i, i + PAGE), narrow: [], ...format })).messages);
    }
  } else {
    // Before message_ids: pages of the user's messages, each anchored at the newest still missing.
    for (let pages = 0; pages < Math.ceil(RAW_BUDGET.rows / PAGE) && wanted.size > 0; pages++) {
      const anchor = Math.max(...wanted);
      const res = await getMessages(conn, { anchor, num_before: PAGE - 1, num_after: 0, narrow: [narrowTerm.sender(conn.email)], ...format });
      store(res.messages);
      const oldest = Math.min(anchor, ...res.messages.map((m) => m.id));
      for (const id of wanted) if (id >= oldest) wanted.delete(id);
      if (res.found_oldest) break;
    }
  }
  trimRawContent(db, RAW_BUDGET.rows, RAW_BUDGET.bytes);
  return stored;
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
        : ((m && serverWouldRefuse(editRules(db), m.timestamp, nowMs)) ??
          `The original text of this message is not on this device (the app keeps that of your newest ${RAW_BUDGET.rows} editable messages, fetched while online): editing it needs a connection to the server.`);
    return { unknown: why };
  }
  const raw = await readRawContent(conn, messageId);
  putRawContent(db, messageId, raw, nowMs);
  return { raw_content: raw, source: 'server' };
}
