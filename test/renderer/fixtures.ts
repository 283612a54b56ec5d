/** Example data for the renderer's reducer tests (plain objects matching the contract). */
import type { ChannelSummary, LocalMessage, NarrowSnapshot, TopicSummary } from '../../sync/protocol/index.js';
import { SERVER_STATE } from '../../sync/protocol/index.js';

export function message(id: number, over: Partial<LocalMessage> = {}): LocalMessage {
  return {
    id,
    type: 'channel',
    channel_id: 1,
    channel_name: 'general',
    topic: 'greetings',
    dm_participants: [],
    sender_id: 10,
    sender_full_name: 'King Hamlet',
    sender_email: 'hamlet@example.com',
    avatar_url: null,
    timestamp: 1_700_000_000 + id,
    content: `<p>message ${id}</p>`,
    is_me_message: false,
    flags: [],
    reactions: [],
    last_edit_timestamp: null,
    last_moved_timestamp: null,
    local: SERVER_STATE,
    ...over,
  };
}

export function snapshot(ids: number[], over: Partial<NarrowSnapshot> = {}): NarrowSnapshot {
  return {
    key: 'channel:1',
    anchor_id: null,
    messages: ids.map((id) => message(id)),
    before: { complete: true, found_end: false },
    after: { complete: true, found_end: true },
    ...over,
  };
}

export function topic(name: string, over: Partial<TopicSummary> = {}): TopicSummary {
  return { topic: name, max_message_id: 1, unread_count: 0, visibility_policy: 0, ...over };
}

export function channel(id: number, name: string, over: Partial<ChannelSummary> = {}): ChannelSummary {
  return { channel_id: id, name, is_subscribed: true, is_muted: false, color: '#76ce90', unread_count: 0, topics: [], ...over };
}
