/** Stored message rows → the UI's `LocalMessage` (sync/protocol/messages.ts). */
import type { Message } from '../../api/index.js';
import { rowToMessage } from '../../db/queries/messages.js';
import { SERVER_STATE, type LocalMessage } from '../../protocol/messages.js';

/** What the readers select for each message: `channel_name` from the channels table, not the
 * message's `display_recipient`, so a renamed channel shows its current name. */
export interface ViewRow {
  readonly id: number;
  readonly flags: number;
  readonly json: string;
  readonly channel_name: string | null;
}

export const VIEW_COLUMNS = 'm.id, m.flags, m.json, (SELECT c.name FROM channels c WHERE c.id = m.channel_id) AS channel_name';

export function toLocalMessage(m: Message, channelName: string | null): LocalMessage {
  const isChannel = m.type === 'stream';
  return {
    id: m.id,
    type: isChannel ? 'channel' : 'direct',
    channel_id: isChannel ? (m.stream_id ?? null) : null,
    channel_name: isChannel ? (channelName ?? (typeof m.display_recipient === 'string' ? m.display_recipient : null)) : null,
    topic: isChannel ? m.subject : '',
    dm_participants:
      typeof m.display_recipient === 'string' ? [] : m.display_recipient.map((r) => ({ id: r.id, email: r.email, full_name: r.full_name })),
    sender_id: m.sender_id,
    sender_full_name: m.sender_full_name,
    sender_email: m.sender_email,
    avatar_url: m.avatar_url ?? null,
    timestamp: m.timestamp,
    content: m.content,
    is_me_message: m.is_me_message,
    flags: m.flags,
    reactions: m.reactions.map((r) => ({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id })),
    last_edit_timestamp: m.last_edit_timestamp ?? null,
    last_moved_timestamp: m.last_moved_timestamp ?? null,
    local: SERVER_STATE,
  };
}

export function rowToLocalMessage(r: ViewRow): LocalMessage {
  return toLocalMessage(rowToMessage(r.json, r.flags), r.channel_name);
}
