/** Stored message rows → the UI's `LocalMessage` (sync/protocol/messages.ts). */
import type { Message } from '../../api/index.js';
import { bitsToFlags } from '../../db/flags.js';
import type { LocalDb } from '../../db/open.js';
import { storedMessageOf } from '../../db/queries/messages.js';
import type { ViewRow } from '../../db/queries/narrow-rows.js';
import { outboxErrorView } from '../../outbox/errors.js';
import { SERVER_STATE, type LocalMessage, type LocalState } from '../../protocol/messages.js';

/** The marker column as the protocol's `LocalState`: failed and conflict say why; the rest are pending. */
export function localStateOf(marker: string | null): LocalState {
  if (marker === null) return SERVER_STATE;
  const v: unknown = JSON.parse(marker);
  if (!Array.isArray(v) || typeof v[0] !== 'number' || typeof v[1] !== 'string') return SERVER_STATE;
  const [id, state, error] = v;
  const why = outboxErrorView(error);
  if (state === 'conflict') return { status: 'conflict', outbox_id: id, error: why };
  if (state === 'failed') return { status: 'failed', outbox_id: id, error: why };
  return { status: 'pending', outbox_id: id, error: null };
}

function toLocalMessage(m: Readonly<Omit<Message, 'flags'>>, flags: string[], channelName: string | null, local: LocalState): LocalMessage {
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
    flags,
    reactions: m.reactions.map((r) => ({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id })),
    last_edit_timestamp: m.last_edit_timestamp ?? null,
    last_moved_timestamp: m.last_moved_timestamp ?? null,
    local,
    ...(m.submessages.length > 0 ? { submessages: m.submessages.map((s) => ({ id: s.id, sender_id: s.sender_id, msg_type: s.msg_type, content: s.content })) } : {}),
  };
}

export function rowToLocalMessage(db: LocalDb, r: ViewRow): LocalMessage {
  // The shared parsed object, not a copy with its flags (rowToMessage): the answer is built from it.
  return toLocalMessage(storedMessageOf(db, r.id, r.json), bitsToFlags(r.flags), r.channel_name, localStateOf(r.local));
}
