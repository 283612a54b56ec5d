/** Offline fixtures for the narrow tests: a store with a few users and channels, message objects. */
import type { Message } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';

export const SELF = 10;
export const VERONA = 5;
export const DENMARK = 6;

export function fixtureDb(): LocalDb {
  const db = openLocalDb(':memory:');
  const user = db.prepare('INSERT INTO users (id, email, full_name, json) VALUES (?, ?, ?, ?)');
  for (const [id, name] of [[SELF, 'hamlet'], [11, 'othello'], [12, 'cordelia']] as const) {
    user.run(id, `${name}@example.com`, name, JSON.stringify({ user_id: id, email: `${name}@example.com`, full_name: name }));
  }
  const channel = db.prepare('INSERT INTO channels (id, name, json) VALUES (?, ?, ?)');
  channel.run(VERONA, 'Verona', JSON.stringify({ stream_id: VERONA, name: 'Verona', invite_only: false }));
  channel.run(DENMARK, 'Denmark', JSON.stringify({ stream_id: DENMARK, name: 'Denmark', invite_only: false }));
  // Subscribed to both, so events keep their history current (narrows on them are not re-read).
  const sub = db.prepare('INSERT INTO subscriptions (channel_id, json) VALUES (?, ?)');
  for (const id of [VERONA, DENMARK]) sub.run(id, JSON.stringify({ stream_id: id }));
  return db;
}

export function channelMessage(id: number, topic = 'castle', channelId = VERONA, extra: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    stream_id: channelId,
    subject: topic,
    content: `<p>message ${id}</p>`,
    content_type: 'text/html',
    timestamp: 1_700_000_000 + id,
    client: 'test',
    avatar_url: null,
    display_recipient: channelId === VERONA ? 'Verona' : 'Denmark',
    recipient_id: channelId + 100,
    sender_id: 11,
    sender_email: 'othello@example.com',
    sender_full_name: 'othello',
    sender_realm_str: 'zulip',
    is_me_message: false,
    flags: [],
    reactions: [],
    submessages: [],
    ...extra,
  };
}

export function directMessage(id: number, userIds: readonly number[] = [SELF, 11]): Message {
  return {
    ...channelMessage(id),
    type: 'private',
    stream_id: undefined,
    subject: '',
    display_recipient: userIds.map((u) => ({ id: u, email: `u${u}@example.com`, full_name: `u${u}` })),
    recipient_id: 999,
  };
}

/** A `GET /messages` success body. */
export function messagesAnswer(messages: readonly Message[], found: { oldest?: boolean; newest?: boolean } = {}) {
  return { json: { result: 'success', msg: '', found_oldest: found.oldest ?? false, found_newest: found.newest ?? false, found_anchor: false, history_limited: false, messages } };
}
