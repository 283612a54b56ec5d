/** Example data for the store's tests and benchmark: message objects as `GET /messages` returns them. */
import type { Message } from '../../../sync/api/index.js';

export const SELF = 10;

export function channelMessage(id: number, over: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    stream_id: 5,
    subject: 'lunch',
    topic_links: [],
    content: `<p>message ${id}</p>`,
    content_type: 'text/html',
    timestamp: 1_700_000_000 + id,
    client: 'test',
    avatar_url: 'https://example.com/avatar.png',
    display_recipient: 'Verona',
    recipient_id: 20,
    sender_id: 11,
    sender_email: 'iago@example.com',
    sender_full_name: 'Iago',
    sender_realm_str: 'sandbox',
    is_me_message: false,
    flags: [],
    reactions: [],
    submessages: [],
    ...over,
  };
}

export function dmMessage(id: number, userIds: readonly number[], over: Partial<Message> = {}): Message {
  return channelMessage(id, {
    type: 'private',
    stream_id: undefined,
    subject: '',
    display_recipient: userIds.map((uid) => ({ id: uid, email: `u${uid}@example.com`, full_name: `User ${uid}`, is_mirror_dummy: false })),
    recipient_id: 30,
    ...over,
  });
}
