/**
 * A queued command of the contract, declared in its kind's module (mutations/): its request and
 * response schemas and `intent`, which turns the request into the row (ids the UI holds mapped to
 * what the kind needs: a local echo's id, a snippet's negative local id; the base the user saw;
 * deadlines from the realm's edit and move limits, docs/sync-design.md "Deadlines"). Each answers at once;
 * nothing here touches the network. registry.ts derives the command table from the kinds' list.
 *
 * The helpers below are the ones several commands share.
 */
import type * as z from 'zod';
import { boundByTimeLimits } from '../../common/edit-limits.js';
import type { ChangeCollector } from '../db/changes.js';
import type { LocalDb } from '../db/open.js';
import { getStoredMessage, LOCAL_ECHO_MIN_ID } from '../db/queries/messages.js';
import { getRealmEditingSettings } from '../db/queries/realm.js';
import { getAccount } from '../db/queries/state.js';
import { getUser } from '../db/queries/users.js';
import { enqueuedSchema, type Enqueued, type OutboxDescription } from '../protocol/outbox.js';
import { OutboxIntentError, type OutboxKind } from './kinds.js';
import type { SendTarget, SendUpload } from './mutations/message-send.js';
import type { EnqueueResult, OutboxRow } from './store.js';

/** Where a draft lives (a channel's topic or a DM group), as the contract names conversations. */
export type DraftTarget = { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };

/** The session's outbox as an intent sees it (engine/session-outbox.ts `SessionOutbox`). */
export interface IntentOutbox {
  /** `uploads`: files the intent names; it runs after them (their rows join its entity). */
  enqueue<A, B>(kind: OutboxKind<A, B>, args: A, base: B, opts?: { deadlineAt?: number | null; uploads?: readonly SendUpload[] }): EnqueueResult;
  send(to: SendTarget, content: string, enqueuedAtSeconds: number, alsoInTransaction?: (changes: ChangeCollector) => void, uploads?: readonly SendUpload[]): EnqueueResult;
  edit(id: number, args: unknown): unknown;
  newTempId(): string;
  now(): number;
  readonly store: { get(id: number): OutboxRow | undefined; resolvedTempId(tmp: string): string | number | undefined };
}

/** What a command's `intent` may use: the account database, the outbox, and the drafts. */
export interface IntentContext {
  readonly db: LocalDb;
  readonly outbox: IntentOutbox;
  /** Delete the conversation's draft inside the caller's transaction (a send and its draft: never both). */
  deleteDraftOf(target: DraftTarget, changes: ChangeCollector): void;
}

export interface QueuedCommand<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly request: Req;
  readonly response: Res;
  intent(req: z.output<Req>, ctx: IntentContext): z.input<Res>;
}

/** Declares a command (the identity, for type inference of `intent`'s request). */
export const queuedCommand = <Req extends z.ZodType, Res extends z.ZodType>(c: QueuedCommand<Req, Res>): QueuedCommand<Req, Res> => c;

export const answer = (r: EnqueueResult): Enqueued => ({ outbox_id: r.id, outcome: r.outcome });

/**
 * The command of most kinds: it queues one row of `kind` (which has no base) and answers with it;
 * `toArgs` turns the request, in the ids the UI holds, into the kind's args (and may refuse it).
 */
export function queues<Req extends z.ZodType, A>(kind: OutboxKind<A, null>, request: Req, toArgs: (r: z.output<Req>, ctx: IntentContext) => NoInfer<A>): QueuedCommand<Req, typeof enqueuedSchema> {
  return { request, response: enqueuedSchema, intent: (r, ctx) => answer(ctx.outbox.enqueue(kind, toArgs(r, ctx), null)) };
}
export const seconds = (ms: number): number => Math.floor(ms / 1000);

/** A message still being sent (a local echo) cannot be moved or reacted to yet. */
export function notUnsent(messageId: number): void {
  if (messageId > LOCAL_ECHO_MIN_ID) throw new OutboxIntentError('the message is being sent: move it once it has arrived');
}

/** A negative local id is an object created offline as `tmp-N` (or the server id it got since). */
export function tempRef(ctx: IntentContext, id: number): number | string {
  if (id >= 0) return id;
  const tmp = `tmp-${-id}`;
  const landed = ctx.outbox.store.resolvedTempId(tmp);
  return landed === undefined ? tmp : Number(landed);
}

/** As Zulip names a direct-message conversation: without the sender, unless it is a note to self. */
export function dmRecipients(db: LocalDb, userIds: readonly number[]): number[] {
  const self = getAccount(db)?.user_id ?? undefined;
  const others = [...new Set(userIds)].filter((u) => u !== self);
  return others.length > 0 ? others : [...new Set(userIds)];
}

/** Time limits do not bind moderators and above (common/edit-limits.ts). */
function boundByLimits(db: LocalDb): boolean {
  const self = getAccount(db)?.user_id ?? undefined;
  return boundByTimeLimits(self === undefined ? undefined : getUser(db, self)?.user.role);
}

function deadline(db: LocalDb, messageId: number, limit: number | null): number | null {
  const m = getStoredMessage(db, messageId);
  return limit !== null && limit > 0 && m && boundByLimits(db) ? (m.timestamp + limit) * 1000 : null;
}

export function editDeadline(db: LocalDb, messageId: number): number | null {
  return deadline(db, messageId, getRealmEditingSettings(db).contentEditLimitSeconds);
}

/**
 * Only a single-message move expires with its message's age: a topic-wide move past the limit
 * gets the partial move offered instead (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED's details).
 */
export function moveDeadline(db: LocalDb, messageId: number, betweenChannels: boolean, mode: string): number | null {
  if (mode !== 'change_one') return null;
  const s = getRealmEditingSettings(db);
  return deadline(db, messageId, betweenChannels ? s.moveBetweenChannelsLimitSeconds : s.moveWithinChannelLimitSeconds);
}

/** Shared words of descriptions. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
export const peopleIn = (ids: readonly number[], names: { user(id: number): string | undefined }): string => ids.map((u) => names.user(u) ?? `user ${u}`).join(', ');

/**
 * A change at a channel, or at a topic of it, in words: `says` puts the place (`#name › topic`, or
 * `#name`; `channel 5` when the name is not known) in a sentence, linked to the place.
 */
export function atChannel(names: { channel(id: number): string | undefined }, id: number, topic: string | undefined, says: (place: string) => string): OutboxDescription {
  const name = names.channel(id) ?? `channel ${id}`;
  const label = topic !== undefined ? `#${name} › ${topic === '' ? 'general chat' : topic}` : `#${name}`;
  return { text: says(label), link: { to: 'channel', channel_id: id, name, ...(topic !== undefined ? { topic } : {}) } };
}
