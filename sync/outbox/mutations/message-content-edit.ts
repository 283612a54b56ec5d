/**
 * `update_message_content` v1: the user changed a message's raw Markdown (docs/sync-design.md
 * "Conflicts and the three-way merge").
 *
 * The base is the exact raw text the user started from, as fetched with apply_markdown=false, and
 * its SHA-256: the server compares `prev_content_sha256` with the hash of what it stores, so a hash
 * over anything else (rendered HTML, a trimmed copy) gives false "edited elsewhere" conflicts.
 *
 * On a mismatch the kind fetches the current raw content and merges three ways. A clean merge is
 * resent against the new hash and reported in the outcome (`rebased`) so the row's history can
 * record it; overlapping changes throw `OutboxConflict` with all three texts, resolved by the user
 * through `resolveConflict` (message-conflict.ts).
 *
 * Uploads: `uploads` names files attached in the editor (upload-file.ts), as a send does. Their
 * rows were moved into this message's entity ahead of the edit when it was queued, so it runs
 * after they land; the text sent is `content` followed by one link per file (by field, never by
 * rewriting the text). The base stays the text the user saw; a lost answer is verified against the
 * text with its links, as the server stores it.
 */
import * as z from 'zod';
import type { ApiConnection } from '../../api/core.js';
import { isApiError } from '../../api/errors.js';
import { getMessage, updateMessage } from '../../api/routes/messages.js';
import type { LocalDb } from '../../db/open.js';
import { updateStoredMessage } from '../../db/queries/messages.js';
import type { ChangeCollector } from '../../db/changes.js';
import { OutboxIntentError, OutboxConflict, type OutboxKind, type SendOutcome, type VerifyOutcome } from '../kinds.js';
import { answer, editDeadline, queuedCommand } from '../commands.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import type { IntentContext } from '../commands.js';
import type { Enqueued } from '../../protocol/outbox.js';
import { linkedContent, localIdOfEcho, MESSAGE_SEND_KIND, messageSendArgs, sendUpload, type SendUpload } from './message-send.js';
import { attachedUpload } from './upload-file.js';
import type { KindContext } from '../kinds.js';
import { sha256Hex, threeWayMerge } from '../merge.js';
import { storedEditContent } from '../normalize.js';

const int = z.number().int().positive();

export const contentEditArgs = z.lazy(() => z.object({
  message_id: int,
  content: z.string(),
  /** Files attached in the editor, linked after its text when sent (absent in rows without any). */
  uploads: z.array(sendUpload).max(100).optional(),
}));
export const contentEditBase = z.lazy(() => z.object({ raw_content: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }));
export type ContentEditArgs = z.infer<typeof contentEditArgs>;
export type ContentEditBase = z.infer<typeof contentEditBase>;

export const CONTENT_EDIT_KIND = 'update_message_content';

/** A base for an edit starting from `raw` (the fetched raw Markdown, untouched). */
export function contentEditBaseOf(raw: string): ContentEditBase {
  return { raw_content: raw, sha256: sha256Hex(raw) };
}

/**
 * A send that succeeded only after a clean merge: what was merged and sent. The pusher ignores
 * extra outcome fields today; recording them in the row's history is wired next.
 */
export interface ContentEditOutcome extends SendOutcome {
  readonly rebased?: { readonly theirs_sha256: string; readonly sent_sha256: string };
}

/** The current raw Markdown of a message, as the server stores it. */
export async function readRawContent(conn: ApiConnection, messageId: number): Promise<string> {
  const r = await getMessage(conn, { messageId, apply_markdown: false });
  // `raw_content` is deprecated but exact when present; `content` is raw with apply_markdown=false.
  return r.raw_content ?? r.message.content;
}

/** Real Zulip's EXPECTATION_MISMATCH, or the spec's generic BAD_REQUEST naming the hash field. */
export function isHashMismatch(e: unknown): boolean {
  if (!isApiError(e) || e.kind !== 'api') return false;
  if (e.code === 'EXPECTATION_MISMATCH') return e.details?.code !== 'EXPECTATION_MISMATCH' || e.details.field_name === 'prev_content_sha256';
  return e.code === 'BAD_REQUEST' && e.serverMsg.includes('prev_content_sha256');
}

/** The text as sent: the user's, then one link per attached file (their URLs read now). */
const sentContent = (a: ContentEditArgs, ctx: KindContext): string => linkedContent(a.content, a.uploads, ctx);

async function send(conn: ApiConnection, a: ContentEditArgs, base: ContentEditBase, ctx: KindContext): Promise<ContentEditOutcome> {
  const args = { message_id: a.message_id, content: sentContent(a, ctx) };
  try {
    await updateMessage(conn, { messageId: args.message_id, content: args.content, prev_content_sha256: base.sha256 });
    return {};
  } catch (e) {
    if (!isHashMismatch(e)) throw e;
  }
  const theirs = await readRawContent(conn, args.message_id);
  const theirsSha = sha256Hex(theirs);
  const merged = threeWayMerge(base.raw_content, args.content, theirs);
  if (merged.kind === 'conflict') {
    throw new OutboxConflict('the message was edited elsewhere and the changes overlap', {
      message_id: args.message_id,
      base: base.raw_content,
      ours: args.content,
      theirs,
      theirs_sha256: theirsSha,
    });
  }
  // A second mismatch (yet another edit meanwhile) is a permanent error for this attempt; the user
  // retries and the procedure runs again against the newer text.
  await updateMessage(conn, { messageId: args.message_id, content: merged.text, prev_content_sha256: theirsSha });
  return { rebased: { theirs_sha256: theirsSha, sent_sha256: sha256Hex(merged.text) } };
}

/**
 * Applied when the server's raw content is exactly ours. A lost answer to a rebased resend reads
 * as not applied; the resend then merges against our own merge, which is clean and idempotent.
 */
async function verify(conn: ApiConnection, args: ContentEditArgs, ctx: KindContext): Promise<VerifyOutcome> {
  const raw = await readRawContent(conn, args.message_id);
  // As stored: "X\n" lands as "X", blank text as "(deleted)"; with the files' links after it.
  return raw === storedEditContent(sentContent(args, ctx), ctx.limits()) ? 'applied' : 'not_applied';
}

export const messageContentEdit: OutboxKind<ContentEditArgs, ContentEditBase, 'update_message_content'> = {
  kind: CONTENT_EDIT_KIND,
  version: 1,
  argsSchema: contentEditArgs,
  baseSchema: contentEditBase,
  describe: (a) => ({ text: 'Edit a message', link: { to: 'message', message_id: a.message_id } }),
  // Shared with moves of the same message, so an edit and a move keep the user's order.
  entityKey: (a) => `message:${a.message_id}`,
  send,
  verify: (conn, a, _b, ctx) => verify(conn, a, ctx),
  // The FIRST base stays: it is the text the user actually saw before all of these edits. The
  // files of both edits stay (the later text was written after the earlier files were attached).
  coalesce: (prev, next) => (prev.kind === CONTENT_EDIT_KIND ? { action: 'merge', args: withUploads(next.args, contentEditArgs.parse(prev.args).uploads), base: prev.base } : { action: 'append' }),
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), messageIds: (a) => [a.message_id] },
};

/** `a` also naming `earlier` files (first, each once). */
function withUploads(a: ContentEditArgs, earlier: readonly SendUpload[] | undefined): ContentEditArgs {
  const all = [...(earlier ?? []), ...(a.uploads ?? [])].filter((u, i, l) => l.findIndex((x) => x.upload === u.upload) === i);
  return all.length > 0 ? { ...a, uploads: all } : a;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Raw Markdown shown before the server renders it. The client has no Markdown renderer, so the
 * text is escaped, one paragraph per blank-line block, until the server's rendering arrives (an
 * `update_message` event for edits, the `message` event for sends).
 */
export function plainTextHtml(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** Show the edit at once in the cache (see `plainTextHtml`). */
export function applyOptimistic(db: LocalDb, args: ContentEditArgs, changes: ChangeCollector): boolean {
  const html = plainTextHtml([args.content, ...(args.uploads ?? []).map((u) => `📎 ${u.name}`)].join('\n\n'));
  return updateStoredMessage(db, args.message_id, (m) => (m.content === html ? undefined : { ...m, content: html }), changes);
}

/** The contract's command. `base_raw_content`: the raw Markdown the user started from (see `messageRawContent`). */
export const messageContentEditCommands = {
  updateMessageContent: queuedCommand({
    request: z.lazy(() => z.object({
      message_id: z.number().int().positive(),
      content: z.string(),
      base_raw_content: z.string(),
      /** Files queued with `uploadFile`, by the `upload_id` it answered (negative local ids). */
      uploads: z.array(z.number().int().negative()).max(100).optional(),
    })),
    response: enqueuedSchema,
    intent(r, ctx) {
      const localId = localIdOfEcho(r.message_id);
      if (localId !== undefined) {
        if (r.uploads?.length) throw new OutboxIntentError('the message is being sent: attach files to it once it has arrived');
        return editUnsent(ctx, localId, r.content);
      }
      const uploads = (r.uploads ?? []).map((id) => attachedUpload(ctx.db, `tmp-${-id}`));
      const args: ContentEditArgs = { message_id: r.message_id, content: r.content, ...(uploads.length > 0 ? { uploads } : {}) };
      return answer(ctx.outbox.enqueue(messageContentEdit, args, contentEditBaseOf(r.base_raw_content), { deadlineAt: editDeadline(ctx.db, r.message_id), uploads }));
    },
  }),
};

/** A message not sent yet is edited in its send row (queued, waiting to retry, or failed). */
function editUnsent(ctx: IntentContext, localId: string, content: string): Enqueued {
  const row = ctx.outbox.store.get(Number(localId));
  if (!row || row.kind !== MESSAGE_SEND_KIND || (row.state !== 'queued' && row.state !== 'retry_wait' && row.state !== 'failed')) {
    throw new OutboxIntentError('the message is being sent: edit it once it has arrived');
  }
  const args = messageSendArgs.parse(row.args);
  ctx.outbox.edit(row.id, { ...args, content });
  return { outbox_id: row.id, outcome: 'merged' };
}
