/**
 * Example data in the shapes of the engine <-> UI contract (sync/protocol): the message as the UI
 * sees it, narrow snapshots, topic and channel summaries, outbox rows. It imports only
 * sync/protocol (and, as the renderer does, types of sync/outbox/registry.ts), so the renderer's
 * tests (tsconfig.web.json) may use it; test/support/eg.ts
 * re-exports it beside the API shapes. Every builder gives a valid object (the contract's schemas
 * parse it: test/support/eg.test.ts), takes per-field overrides, and numbers what it is not told
 * from counters that start afresh in every test file.
 *
 * The cast is the reference server's demo realm's: King Hamlet (the user, 10), Othello (11),
 * Cordelia (12), Iago (13); channels general (1), Verona (5), Denmark (6), Scotland (7).
 */
import {
  SERVER_STATE,
  type ChannelSummary,
  type DmParticipant,
  type LocalMessage,
  type NarrowSnapshot,
  type OutboxRowView,
  type TopicSummary,
} from '../../sync/protocol/index.js';
import type { OutboxChange, OutboxRowOf } from '../../sync/outbox/registry.js';

/** A person of the cast: the fields every shape that names a user takes from. */
export interface Person {
  readonly user_id: number;
  readonly email: string;
  readonly full_name: string;
}

/** A channel of the cast: the fields every shape that names a channel takes from. */
export interface Place {
  readonly stream_id: number;
  readonly name: string;
}

export const hamlet: Person = { user_id: 10, email: 'hamlet@example.com', full_name: 'King Hamlet' };
export const othello: Person = { user_id: 11, email: 'othello@example.com', full_name: 'Othello, the Moor of Venice' };
export const cordelia: Person = { user_id: 12, email: 'cordelia@example.com', full_name: "Cordelia, Lear's daughter" };
export const iago: Person = { user_id: 13, email: 'iago@example.com', full_name: 'Iago' };
/** The user the tests act as. */
export const selfUser = hamlet;
export const SELF = selfUser.user_id;
export const cast: readonly Person[] = [hamlet, othello, cordelia, iago];

export const general: Place = { stream_id: 1, name: 'general' };
export const verona: Place = { stream_id: 5, name: 'Verona' };
export const denmark: Place = { stream_id: 6, name: 'Denmark' };
export const scotland: Place = { stream_id: 7, name: 'Scotland' };
export const places: readonly Place[] = [general, verona, denmark, scotland];

/** The person of the cast with this id, or a stand-in (`User N`, `uN@example.com`) for any other id. */
export function person(userId: number): Person {
  return cast.find((p) => p.user_id === userId) ?? { user_id: userId, email: `u${userId}@example.com`, full_name: `User ${userId}` };
}

/** Deterministic ids: each counter starts afresh in every test file (vitest isolates modules). */
function counter(start: number): () => number {
  let next = start;
  return () => next++;
}
/** The next message id no builder has handed out yet (1, 2, 3, ... in a test file). */
export const nextMessageId = counter(1);
const nextOutboxId = counter(1);

/** Seconds since the epoch of message `id`: later ids are newer. */
export const messageTimestamp = (id: number): number => 1_700_000_000 + id;

export const dmParticipant = (userId: number): DmParticipant => {
  const p = person(userId);
  return { id: p.user_id, email: p.email, full_name: p.full_name };
};

export interface LocalMessageOptions extends Partial<LocalMessage> {
  /** The channel (a channel message); `channel_id` / `channel_name` still win. */
  readonly channel?: Place;
  /** The sender; `sender_*` fields still win. */
  readonly sender?: Person;
}

/** A channel message as the UI sees it (from Hamlet in Verona › castle unless told otherwise). */
export function localMessage(over: LocalMessageOptions = {}): LocalMessage {
  const { channel = verona, sender = selfUser, ...fields } = over;
  const id = fields.id ?? nextMessageId();
  return {
    id,
    type: 'channel',
    channel_id: channel.stream_id,
    channel_name: channel.name,
    topic: 'castle',
    dm_participants: [],
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    avatar_url: null,
    timestamp: messageTimestamp(id),
    content: `<p>message ${id}</p>`,
    is_me_message: false,
    flags: [],
    reactions: [],
    last_edit_timestamp: null,
    last_moved_timestamp: null,
    local: SERVER_STATE,
    ...fields,
  };
}

/** A direct message as the UI sees it, among `participants` (user ids, self included). */
export function localDmMessage(over: LocalMessageOptions & { participants?: readonly number[] } = {}): LocalMessage {
  const { participants = [SELF, othello.user_id], ...rest } = over;
  return localMessage({ type: 'direct', channel_id: null, channel_name: null, topic: '', dm_participants: participants.map(dmParticipant), ...rest });
}

/** A narrow view's snapshot holding the given messages (complete both ways, the newest end found). */
export function narrowSnapshot(messages: readonly LocalMessage[], over: Partial<NarrowSnapshot> = {}): NarrowSnapshot {
  return {
    key: `channel:${verona.stream_id}`,
    anchor_id: null,
    messages: [...messages],
    before: { complete: true, found_end: false },
    after: { complete: true, found_end: true },
    ...over,
  };
}

export function topicSummary(over: Partial<TopicSummary> = {}): TopicSummary {
  return { topic: 'castle', max_message_id: 1, unread_count: 0, visibility_policy: 0, ...over };
}

/** A subscribed, unmuted channel with nothing unread (Verona unless told otherwise). */
export function channelSummary(over: Partial<ChannelSummary> & { channel?: Place } = {}): ChannelSummary {
  const { channel = verona, ...fields } = over;
  return { channel_id: channel.stream_id, name: channel.name, is_subscribed: true, is_muted: false, pin_to_top: false, color: '#76ce90', unread_count: 0, topics: [], ...fields };
}

/**
 * An outbox row as the panel sees it: queued, never tried, no error (ids from a counter). Its kind
 * and args go together, typed by the kind (`OutboxChange`); a kind given without args (or none:
 * `send_message`) carries `args: null`, as the engine shows args it cannot read.
 */
export function outboxRow(over: Partial<Omit<OutboxRowView, 'kind' | 'args'>> & (OutboxChange | { kind?: string; args?: null }) = {}): OutboxRowOf {
  return {
    outbox_id: over.outbox_id ?? nextOutboxId(),
    kind: 'send_message',
    target: 'x',
    state: 'queued',
    args: null,
    attempts: 0,
    next_attempt_at: null,
    deadline_at: null,
    last_error: null,
    conflict: null,
    created_at: 0,
    updated_at: 0,
    description: { text: 'Send a message to #general › lunch', link: null },
    ...over,
  };
}
