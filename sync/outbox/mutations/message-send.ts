/**
 * `send_message` v1: post a channel or direct message, possibly written offline (docs/sync-design.md
 * "Sending messages").
 *
 * Local echo. The message is shown at once as a row of the message cache with the id
 * LOCAL_ECHO_MIN_ID + the outbox row id (`local_id` is that row id). This is the least invasive
 * place with the existing schema: narrows compile to SQL over `messages`, so an echo shows in every
 * narrow it belongs to with no second code path; its id sorts after every server message, which
 * is where a message being sent belongs, and keeps the user's typed order; the few readers that
 * want "the newest server message" skip ids from LOCAL_ECHO_MIN_ID up (db/queries/messages.ts).
 * A negative id (as for offline snippets) would sort first and fall outside newest windows. The
 * echo is a projection of the outbox row: a cache reset loses nothing, the session re-applies it.
 *
 * Reconcile. `queue_id` is the session's event queue at send time (not at enqueue time: the echo
 * event goes to the queue named in the request). The server puts `local_id` on that queue's
 * `message` event as `local_message_id`; the session deletes the echo in the transaction that
 * stores the real message, so both never show. If the event carries no `local_message_id` (the
 * queue was re-registered meanwhile), the id the answer named (kept in the row's history) retires
 * the echo once that message is cached.
 *
 * Exactly once. A lost answer is never resent blindly: `verify` reads the conversation's newest
 * messages sent by us as raw Markdown and adopts one with our exact content sent no earlier than
 * the intent (less a minute of clock skew), skipping messages other rows of the conversation
 * already landed as (two identical "ok"s are two messages). Not found means not applied: resend.
 *
 * Uploads: `uploads` names files queued with it (upload-file.ts) by their `tmp-N` ids. Their rows
 * were moved into this send's conversation when it was queued, ahead of it, so it runs after they
 * land; the text sent is `content` followed by one link per file, each URL read from what its
 * upload landed as (by field: the user's text is never searched or rewritten). A file discarded
 * before it was uploaded fails the send, which says so: the user edits or discards the message.
 *
 * Order: the entity is the conversation (channel + topic, or the direct-message recipients), so
 * messages to one conversation arrive in the order typed; conversations drain concurrently.
 */
import * as z from 'zod';
import { getMessages, narrowTerm, sendMessage, topicKey, type ApiConnection, type Message, type NarrowTerm, type SendMessageArgs } from '../../api/index.js';
import { FLAG, HAS_ROW } from '../../db/flags.js';
import type { LocalDb } from '../../db/open.js';
import { channelName } from '../../db/queries/channels.js';
import { deleteMessages, getStoredMessage, LOCAL_ECHO_MIN_ID, writeMessageRow } from '../../db/queries/messages.js';
import { messageRow } from '../../db/queries/message-columns.js';
import { getAccount } from '../../db/queries/state.js';
import { getUser, getUsers } from '../../db/queries/users.js';
import type { ChangeCollector } from '../../db/changes.js';
import { putRawContent } from '../../db/queries/raw.js';
import { getRealmLimits } from '../../db/queries/realm.js';
import { echoesOfOverRows, forgetEchoOver } from '../../db/queries/outbox.js';
import type { KindContext, OutboxKind, VerifyOutcome } from '../kinds.js';
import { answer, atChannel, peopleIn, queuedCommand, seconds } from '../commands.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { DEFAULT_LIMITS, storedContent, storedTopic } from '../normalize.js';
import { plainTextHtml } from './message-content-edit.js';
import { attachedUpload } from './upload-file.js';

const int = z.number().int();

export const sendTarget = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), stream_id: int.positive(), topic: z.string() }),
  z.object({ type: z.literal('direct'), user_ids: z.array(int.positive()).min(1) }),
]));
export type SendTarget = z.output<typeof sendTarget>;

/** A file sent with a message: the upload's `tmp-N` and the link's text. */
export const sendUpload = z.lazy(() => z.object({ upload: z.string().regex(/^tmp-\d+$/), name: z.string().min(1) }));
export type SendUpload = z.output<typeof sendUpload>;

export const messageSendArgs = z.lazy(() => z
  .object({
    /** The outbox row id (decimal): unique per account database, never reused. */
    local_id: z.string().regex(/^[1-9]\d*$/),
    to: sendTarget,
    /** Empty only when files are sent. */
    content: z.string(),
    /** Files queued with the message, linked after its text (absent in rows without any). */
    uploads: z.array(sendUpload).max(100).optional(),
  })
  .refine((a) => a.content !== '' || (a.uploads ?? []).length > 0, 'a message needs text or a file'));
export type MessageSendArgs = z.output<typeof messageSendArgs>;

/** When the user sent it (UNIX seconds, local clock): a message older than this is not ours. */
export const messageSendBase = z.object({ enqueued_at: int });
export type MessageSendBase = z.output<typeof messageSendBase>;

export const MESSAGE_SEND_KIND = 'send_message';
/** Messages sent within this many seconds before the intent still count when verifying (skew). */
export const VERIFY_CLOCK_SLACK_S = 60;
const VERIFY_WINDOW = 100;

export function conversationKey(to: SendTarget): string {
  if (to.type === 'channel') return `conversation:channel:${to.stream_id}:${topicKey(to.topic)}`;
  return `conversation:dm:${[...new Set(to.user_ids)].sort((a, b) => a - b).join(',')}`;
}

export const echoIdOf = (localId: string): number => LOCAL_ECHO_MIN_ID + Number(localId);

/** The local id behind an echo's message id, or undefined for a server message. */
export function localIdOfEcho(messageId: number): string | undefined {
  return messageId > LOCAL_ECHO_MIN_ID ? String(messageId - LOCAL_ECHO_MIN_ID) : undefined;
}

/** The server compares stored text: it drops trailing whitespace and normalises line ends. */
const normalise = (s: string) => s.replace(/\r\n?/g, '\n').trimEnd();

/** A Markdown link to an uploaded file, as Zulip's composer writes it (brackets in names dropped). */
export const uploadLink = (name: string, url: string): string => `[${name.replace(/[[\]]/g, '')}](${url})`;

/** The text with one link per file after it: what the server is sent and stores. */
export function contentWithUploads(content: string, links: ReadonlyArray<{ name: string; url: string }>): string {
  return [content.replace(/\s+$/, ''), ...links.map((l) => uploadLink(l.name, l.url))].filter((s) => s !== '').join('\n');
}

/** The files a send names that did not arrive (nothing to link yet). */
export class UploadNotLanded extends Error {
  override readonly name = 'UploadNotLanded';
}

/** The args with `content` as sent: the text and the links of every landed upload. */
function resolvedArgs(a: MessageSendArgs, ctx: KindContext): MessageSendArgs {
  if (!a.uploads || a.uploads.length === 0) return a;
  return { local_id: a.local_id, to: a.to, content: linkedContent(a.content, a.uploads, ctx) };
}

/** `content` followed by a link to each file, its URL read from what its upload landed as (a send's or an edit's). */
export function linkedContent(content: string, uploads: readonly SendUpload[] | undefined, ctx: KindContext): string {
  if (!uploads || uploads.length === 0) return content;
  const links = uploads.map((u) => {
    const url = ctx.uploads?.urlOf(u.upload);
    if (url !== undefined) return { name: u.name, url };
    if (ctx.uploads?.discarded(u.upload)) throw new UploadNotLanded(`The file “${u.name}” was discarded before it was uploaded: edit the message, or discard it.`);
    throw new UploadNotLanded(`The file “${u.name}” has not been uploaded yet.`);
  });
  return contentWithUploads(content, links);
}

function wireArgs(a: MessageSendArgs, queueId: string | undefined): SendMessageArgs {
  const echo = queueId === undefined ? {} : { queue_id: queueId, local_id: a.local_id };
  if (a.to.type === 'channel') return { type: 'channel', to: a.to.stream_id, topic: a.to.topic, content: a.content, ...echo };
  return { type: 'direct', to: a.to.user_ids, content: a.content, ...echo };
}

/** Our message with this text in its conversation, sent since the intent (less the clock slack). */
export async function verifySent(conn: ApiConnection, a: MessageSendArgs, b: MessageSendBase, ctx: KindContext): Promise<VerifyOutcome> {
  // Compared as the server stores them: a trimmed or truncated topic, trimmed or truncated content.
  const limits = ctx.limits();
  const where: NarrowTerm[] = a.to.type === 'channel' ? [narrowTerm.channel(a.to.stream_id), narrowTerm.topic(storedTopic(a.to.topic, limits))] : [narrowTerm.dm(a.to.user_ids)];
  const res = await getMessages(conn, {
    anchor: 'newest',
    num_before: VERIFY_WINDOW,
    num_after: 0,
    narrow: [...where, narrowTerm.sender(conn.email)],
    apply_markdown: false,
    allow_empty_topic_name: true,
  });
  const claimed = ctx.claimed(conversationKey(a.to), a.local_id);
  const ours = storedContent(a.content, limits);
  const found = res.messages
    .filter((m) => m.sender_email.toLowerCase() === conn.email.toLowerCase())
    .filter((m) => m.timestamp >= b.enqueued_at - VERIFY_CLOCK_SLACK_S && !claimed.has(m.id) && normalise(m.content) === ours)
    .sort((x, y) => x.id - y.id)[0];
  return found ? { status: 'applied', createdId: found.id } : 'not_applied';
}

/** The queue and the landed ids come from the session (`KindContext`). */
export const messageSend: OutboxKind<MessageSendArgs, MessageSendBase, 'send_message'> = {
  kind: MESSAGE_SEND_KIND,
  version: 1,
  argsSchema: messageSendArgs,
  baseSchema: messageSendBase,
  describe(a, names) {
    if (a.to.type === 'direct') return { text: `Send a direct message to ${peopleIn(a.to.user_ids, names)}`, link: null };
    return atChannel(names, a.to.stream_id, a.to.topic, (topic) => `Send a message to ${topic}`);
  },
  entityKey: (a) => conversationKey(a.to),
  async send(conn, a, _b, ctx) {
    const res = await sendMessage(conn, wireArgs(resolvedArgs(a, ctx), ctx.queueId()));
    return { createdId: res.id };
  },
  verify: (conn, a, b, ctx) => verifySent(conn, resolvedArgs(a, ctx), b, ctx),
  local: { apply: (db, a, b, c) => applyOptimistic(db, a, b, c), messageIds: (a) => [echoIdOf(a.local_id)] },
  landed(db, a, createdId, changes) {
    // The server stores the text trimmed: that is the raw Markdown an offline edit starts from.
    const max = getRealmLimits(db).maxMessageLength ?? DEFAULT_LIMITS.maxMessageLength;
    // With files, the raw text is the server's (the links' URLs are known there); read when edited.
    if (typeof createdId === 'number' && !a.uploads?.length) putRawContent(db, createdId, storedContent(a.content, { ...DEFAULT_LIMITS, maxMessageLength: max }), Date.now());
    retireEchoes(db, [], changes);
  },
};

function echoMessage(db: LocalDb, a: MessageSendArgs, b: MessageSendBase): Message | undefined {
  const selfId = getAccount(db)?.user_id ?? undefined;
  if (selfId === undefined) return undefined;
  const self = getUser(db, selfId)?.user;
  const common = {
    id: echoIdOf(a.local_id),
    content: plainTextHtml([a.content, ...(a.uploads ?? []).map((u) => `📎 ${u.name}`)].join('\n\n')),
    content_type: 'text/html',
    timestamp: b.enqueued_at,
    client: 'outbox',
    avatar_url: self?.avatar_url ?? null,
    recipient_id: 0,
    sender_id: selfId,
    sender_email: self?.email ?? '',
    sender_full_name: self?.full_name ?? '',
    sender_realm_str: '',
    is_me_message: /^\/me( |$)/.test(a.content),
    flags: ['read'],
    reactions: [],
    submessages: [],
  } as const;
  if (a.to.type === 'channel') {
    const name = channelName(db, a.to.stream_id) ?? '';
    return { ...common, flags: ['read'], reactions: [], submessages: [], type: 'stream', stream_id: a.to.stream_id, subject: a.to.topic, display_recipient: name };
  }
  const ids = [...new Set([selfId, ...a.to.user_ids])];
  const known = new Map(getUsers(db, ids).map((u) => [u.user.user_id, u.user]));
  const display = ids.map((id) => ({ id, email: known.get(id)?.email ?? '', full_name: known.get(id)?.full_name ?? '' }));
  return { ...common, flags: ['read'], reactions: [], submessages: [], type: 'private', subject: '', display_recipient: display };
}

/**
 * Put the echo in the cache (again, after a cache reset or a re-register). Read, and marked as
 * having a per-user row so narrows of personal history and volatile-narrow cleanup keep it.
 */
export function applyOptimistic(db: LocalDb, args: MessageSendArgs, base: MessageSendBase, changes: ChangeCollector): void {
  const m = echoMessage(db, args, base);
  if (!m) return;
  const row = messageRow(m, FLAG.read | HAS_ROW);
  const had = getStoredMessage(db, m.id);
  if (had && messageRow({ ...had, flags: m.flags }, row.flags).json === row.json) return;
  writeMessageRow(db, row, m.content, had === undefined);
  if (had) changes.messageUpdated(m.id);
  else changes.messageAdded(m.id);
}

/** The real message replaced the echo (or the send was discarded): the echo goes. */
export function removeEcho(db: LocalDb, localId: string, changes: ChangeCollector): boolean {
  return deleteMessages(db, [echoIdOf(localId)], changes).length > 0;
}

/** The server id a finished send row landed as (from its history), if it says. */
export function landedIdOf(historyJson: string): number | undefined {
  const history: unknown = JSON.parse(historyJson);
  if (!Array.isArray(history)) return undefined;
  for (const h of history) {
    if (typeof h !== 'object' || h === null || !('note' in h)) continue;
    const note: unknown = h.note;
    if (typeof note === 'object' && note !== null && 'created_id' in note && typeof note.created_id === 'number') return note.created_id;
  }
  return undefined;
}

/**
 * Echoes whose send is over: the echoed event named them (`localEchoes`), the row was discarded
 * or pruned, or it landed and the real message is cached now. Cheap however many sends wait:
 * one read of the (usually empty) table of send rows that went over with their echo cached.
 */
export function retireEchoes(db: LocalDb, echoed: ReadonlyArray<{ local_message_id: string }>, changes: ChangeCollector): void {
  for (const e of echoed) if (/^[1-9]\d*$/.test(e.local_message_id)) removeEcho(db, e.local_message_id, changes);
  // Only echoes whose row went over (or gone) since they were last looked at come back (a table
  // triggers keep, db/queries/outbox.ts): 1,000 messages waiting to be sent cost a batch nothing.
  const over = echoesOfOverRows(db);
  for (const row of over) {
    const localId = localIdOfEcho(row.echo_id);
    if (localId === undefined) continue;
    // Stale entries: the echo went another way, or the row is live again (its echo stays).
    if (row.cached === 0 || (row.state !== null && row.state !== 'done' && row.state !== 'discarded')) {
      forgetEchoOver(db, row.echo_id);
      continue;
    }
    const landed = row.state === 'done' && row.history !== null ? landedIdOf(row.history) : undefined;
    // Landed but not cached yet: the echo stays until the real message arrives.
    if (landed !== undefined && !getStoredMessage(db, landed)) continue;
    removeEcho(db, localId, changes);
    forgetEchoOver(db, row.echo_id);
  }
}

const conversation = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), channel_id: z.number().int().positive(), topic: z.string() }),
  z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int().positive()).min(1) }),
]));

/** The contract's command. It answers `message_id`: the local echo's id, shown at once in the conversation's views. */
export const messageSendCommands = {
  sendMessage: queuedCommand({
    request: z.lazy(() => z
      .object({
        to: conversation,
        content: z.string(),
        /** Files queued with `uploadFile`, by the `upload_id` it answered (negative local ids). */
        uploads: z.array(z.number().int().negative()).max(100).optional(),
      })
      .refine((r) => r.content !== '' || (r.uploads ?? []).length > 0, 'a message needs text or a file')),
    response: enqueuedSchema.extend({ message_id: z.number().int() }),
    intent(r, ctx) {
      const self = getAccount(ctx.db)?.user_id ?? undefined;
      // Zulip names a conversation without the sender (unless it is with oneself).
      const others = r.to.type === 'direct' ? r.to.user_ids.filter((u) => u !== self) : [];
      const to: SendTarget =
        r.to.type === 'channel' ? { type: 'channel', stream_id: r.to.channel_id, topic: r.to.topic } : { type: 'direct', user_ids: others.length > 0 ? others : r.to.user_ids };
      // The conversation's draft goes in the transaction that queues the send: never both, never neither.
      const draft = r.to;
      const uploads = (r.uploads ?? []).map((id) => attachedUpload(ctx.db, `tmp-${-id}`));
      const res = ctx.outbox.send(to, r.content, seconds(ctx.outbox.now()), (changes) => ctx.deleteDraftOf(draft, changes), uploads);
      return { ...answer(res), message_id: echoIdOf(String(res.id)) };
    },
  }),
};
