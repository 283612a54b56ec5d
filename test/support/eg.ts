/**
 * Example data for tests, in one place (after zulip-flutter's `eg`): users, channels and
 * subscriptions, message objects as `GET /messages` returns them, events with increasing ids and
 * register snapshots, all in the API's shapes (sync/api parses every one of them:
 * test/support/eg.test.ts), plus the contract's shapes from eg-contract.ts (the part the
 * renderer's tests may import). `import * as eg from '.../support/eg.js'`, then `eg.user()`,
 * `eg.streamMessage({ topic: 'lunch' })`, `eg.dmMessage({ participants: [eg.SELF, 12] })`.
 *
 * Defaults are valid and name the demo realm's cast (eg-contract.ts); every field can be
 * overridden; ids not given come from counters that start afresh in every test file.
 */
import type { BasicChannel, Message, RegisterResponse, Subscription, User } from '../../sync/api/index.js';
import { cordelia, denmark, hamlet, iago, messageTimestamp, nextMessageId, othello, person, SELF, selfUser, verona, type Person, type Place } from './eg-contract.js';

export * from './eg-contract.js';

/** A member of the realm (Othello, a human with the member role, unless told otherwise). */
export function user(over: Partial<User> & { person?: Person } = {}): User {
  const { person: who, ...fields } = over;
  const p = who ?? (fields.user_id === undefined ? othello : person(fields.user_id));
  return {
    user_id: p.user_id,
    email: p.email,
    delivery_email: null,
    full_name: p.full_name,
    date_joined: '2020-01-01T00:00:00+00:00',
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: 400,
    timezone: '',
    avatar_url: null,
    ...fields,
  };
}

/** The cast as realm users (`realm_users` of a register snapshot). */
export const users = (): User[] => [hamlet, othello, cordelia, iago].map((p) => user({ person: p }));

/** A public channel with shared history (Verona unless told otherwise). */
export function channel(over: Partial<BasicChannel> & { place?: Place } = {}): BasicChannel {
  const { place = verona, ...fields } = over;
  return {
    stream_id: place.stream_id,
    name: place.name,
    description: '',
    rendered_description: '',
    date_created: 1_600_000_000,
    creator_id: null,
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    first_message_id: 1,
    message_retention_days: null,
    stream_weekly_traffic: null,
    is_archived: false,
    folder_id: null,
    subscriber_count: 2,
    ...fields,
  };
}

/** The user's subscription to a channel (unmuted, unpinned; subscribers the user and Othello). */
export function subscription(over: Partial<Subscription> & { place?: Place } = {}): Subscription {
  const { place, ...fields } = over;
  return {
    ...channel(place ? { place } : {}),
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    subscribers: [SELF, othello.user_id],
    ...fields,
  };
}

export interface StreamMessageOptions extends Partial<Message> {
  /** The channel; `stream_id` / `display_recipient` still win. */
  readonly channel?: Place;
  /** The topic (the wire's `subject`). */
  readonly topic?: string;
  /** The sender; `sender_*` fields still win. */
  readonly sender?: Person;
}

/** A channel message as `GET /messages` returns it (Othello in Verona › castle, no flags). */
export function streamMessage(over: StreamMessageOptions = {}): Message {
  const { channel: place = verona, topic = 'castle', sender = othello, ...fields } = over;
  const id = fields.id ?? nextMessageId();
  return {
    id,
    type: 'stream',
    stream_id: place.stream_id,
    subject: topic,
    content: `<p>message ${id}</p>`,
    content_type: 'text/html',
    timestamp: messageTimestamp(id),
    client: 'test',
    avatar_url: null,
    display_recipient: place.name,
    recipient_id: place.stream_id + 100,
    sender_id: sender.user_id,
    sender_email: sender.email,
    sender_full_name: sender.full_name,
    sender_realm_str: 'zulip',
    is_me_message: false,
    flags: [],
    reactions: [],
    submessages: [],
    ...fields,
  };
}

/**
 * A direct message among `participants` (user ids, self included; Othello and the user unless told
 * otherwise), sent by the first participant who is not the user.
 */
export function dmMessage(over: Omit<StreamMessageOptions, 'channel' | 'topic'> & { participants?: readonly number[] } = {}): Message {
  const { participants = [SELF, othello.user_id], sender, ...fields } = over;
  const from = sender ?? person(participants.find((id) => id !== SELF) ?? SELF);
  const sorted = [...participants].sort((a, b) => a - b);
  return streamMessage({
    type: 'private',
    stream_id: undefined,
    subject: '',
    display_recipient: sorted.map(dmRecipient),
    recipient_id: 999,
    sender: from,
    ...fields,
  });
}

const dmRecipient = (userId: number) => {
  const p = person(userId);
  return { id: p.user_id, email: p.email, full_name: p.full_name, is_mirror_dummy: false };
};

/** A `GET /messages` success body, as the fake transport replies it. */
export function messagesAnswer(messages: readonly Message[], found: { oldest?: boolean; newest?: boolean; anchor?: boolean } = {}) {
  return {
    json: { result: 'success', msg: '', found_oldest: found.oldest ?? false, found_newest: found.newest ?? false, found_anchor: found.anchor ?? false, history_limited: false, messages },
  };
}

// --- Events -------------------------------------------------------------------------------------

/** An event as `GET /events` sends it: raw, for sync/api's parseEvent. */
export type RawEvent = { readonly id: number; readonly type: string } & Record<string, unknown>;

let lastEventId = -1;
/** The id the last event built in this test file got (-1 before any: a fresh queue's `last_event_id`). */
export const lastEvent = (): number => lastEventId;

/** An event of any type with the next id (0, 1, 2, ... in a test file). */
export function event(type: string, fields: Record<string, unknown> = {}): RawEvent {
  return { id: ++lastEventId, type, ...fields };
}

/** A new message: on the wire its flags sit beside the message, not in it. */
export function messageEvent(message: Message, over: Record<string, unknown> = {}): RawEvent {
  const { flags, ...wire } = message;
  return event('message', { message: wire, flags, ...over });
}

/** An edit (content, move or both) of `message_id` by Othello; `message_ids` defaults to it alone. */
export function updateMessageEvent(over: { message_id: number } & Record<string, unknown>): RawEvent {
  return event('update_message', {
    user_id: othello.user_id,
    rendering_only: false,
    message_ids: [over.message_id],
    flags: [],
    edit_timestamp: messageTimestamp(over.message_id) + 60,
    ...over,
  });
}

export function updateMessageFlagsEvent(op: 'add' | 'remove', flag: string, messages: readonly number[], over: Record<string, unknown> = {}): RawEvent {
  return event('update_message_flags', { op, flag, messages, all: false, ...over });
}

export function subscriptionAddEvent(subscriptions: readonly Subscription[]): RawEvent {
  return event('subscription', { op: 'add', subscriptions });
}

export function realmUserUpdateEvent(personFields: { user_id: number } & Record<string, unknown>): RawEvent {
  return event('realm_user', { op: 'update', person: personFields });
}

// --- Register ------------------------------------------------------------------------------------

/**
 * A `POST /register` answer (parsed shape) for the user: the cast as realm users, subscribed to
 * Verona and Denmark, nothing unread. Fetch keys a test leaves out stay out (set them to
 * `undefined` to drop one of the defaults).
 */
export function registerSnapshot(over: Partial<RegisterResponse> = {}): RegisterResponse {
  return {
    result: 'success',
    msg: '',
    queue_id: 'q-1',
    last_event_id: -1,
    zulip_feature_level: 420,
    zulip_version: '11.0',
    user_id: selfUser.user_id,
    email: selfUser.email,
    full_name: selfUser.full_name,
    realm_users: users(),
    subscriptions: [subscription({ place: verona }), subscription({ place: denmark })],
    ...over,
  };
}
