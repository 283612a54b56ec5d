/**
 * Emoji reactions (Zulip's check_add_reaction / check_remove_reaction) and who hears about
 * changes to a message: everyone with a user_messages row, plus current subscribers of a channel
 * with shared history. Reacting to a message without a row gives the reactor a historical row,
 * so they hear about later changes.
 */
import { emit } from '../events/emit.js';
import { badRequest, JsonableError } from '../http/errors.js';
import { unicodeEmojiCode } from '../../common/emoji.js';
import { activeRealmEmoji } from './realm-emoji.js';
import type { ServerState } from '../state.js';
import { canAccessMessage, getChannel, subscriberIds } from './access.js';
import { HISTORICAL_FLAGS } from './flags.js';
import { sql } from '../db/statements.js';
import { getMessage, type MessageRow } from './messages.js';
import type { UserRow } from './users.js';

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export interface ReactionSpec {
  readonly emojiName?: string | undefined;
  readonly emojiCode?: string | undefined;
  readonly reactionType?: ReactionType | undefined;
}

/** Users who receive events about a change to this message (Zulip's event_recipient_ids_for_action_on_messages). */
export function messageEventRecipients(srv: ServerState, m: Pick<MessageRow, 'id' | 'channel_id'>): number[] {
  const ids = new Set(sql(srv, 'SELECT user_id FROM user_messages WHERE message_id = ?').pluck().all(m.id) as number[]);
  if (m.channel_id !== null) {
    const ch = getChannel(srv, m.channel_id);
    if (ch && ch.history_public_to_subscribers) for (const u of subscriberIds(srv, ch.id)) ids.add(u);
  }
  return [...ids].sort((a, b) => a - b);
}

/** A message the user may read, or "Invalid message(s)". */
export function accessMessage(srv: ServerState, user: UserRow, messageId: number): MessageRow {
  const m = getMessage(srv, messageId);
  if (!m || !canAccessMessage(srv, user, m)) throw badRequest('Invalid message(s)');
  return m;
}

/** Name → (code, type) for names this server knows (Unicode table and Zulip's extra emoji). */
function emojiData(srv: ServerState, name: string): { code: string; type: ReactionType } {
  if (name === 'zulip') return { code: 'zulip', type: 'zulip_extra_emoji' };
  const custom = activeRealmEmoji(srv, name);
  if (custom) return { code: custom.id, type: 'realm_emoji' };
  const code = unicodeEmojiCode(name);
  if (!code) throw badRequest(`Emoji '${name}' does not exist`);
  return { code, type: 'unicode_emoji' };
}

function checkEmoji(srv: ServerState, name: string, code: string, type: ReactionType): void {
  if (type === 'realm_emoji') {
    // Zulip: the name must be an active custom emoji, and the code its id.
    const custom = activeRealmEmoji(srv, name);
    if (!custom) throw badRequest('Invalid emoji name.');
    if (custom.id !== code) throw badRequest('Invalid custom emoji.');
    return;
  }
  if (type === 'zulip_extra_emoji') {
    if (name !== 'zulip' || code !== 'zulip') throw badRequest('Invalid emoji name.');
    return;
  }
  const known = unicodeEmojiCode(name);
  if (!known) throw badRequest('Invalid emoji name.');
  if (known !== code) throw badRequest('Invalid emoji code.');
}

function reactionEvent(srv: ServerState, op: 'add' | 'remove', user: UserRow, m: MessageRow, name: string, code: string, type: string): void {
  emit(srv, messageEventRecipients(srv, m), {
    type: 'reaction',
    op,
    message_id: m.id,
    emoji_name: name,
    emoji_code: code,
    reaction_type: type,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.full_name },
  });
}

export function addReaction(srv: ServerState, user: UserRow, messageId: number, spec: ReactionSpec): void {
  const m = accessMessage(srv, user, messageId);
  let name = spec.emojiName ?? '';
  let code = spec.emojiCode;
  let type = spec.reactionType;
  if (code === undefined || type === undefined) {
    const d = emojiData(srv, name);
    code ??= d.code;
    type ??= d.type;
  }
  if (sql(srv, 'SELECT 1 FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?').get(m.id, user.id, code, type)) {
    throw new JsonableError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  }
  const existing = sql(srv, 'SELECT emoji_name FROM reactions WHERE message_id = ? AND emoji_code = ? AND reaction_type = ? ORDER BY id LIMIT 1').pluck().get(m.id, code, type) as
    | string
    | undefined;
  // A vote for an existing reaction keeps its name (Zulip).
  if (existing !== undefined) name = existing;
  else checkEmoji(srv, name, code, type);
  if (!sql(srv, 'SELECT 1 FROM user_messages WHERE user_id = ? AND message_id = ?').get(user.id, m.id)) {
    sql(srv, 'INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)').run(user.id, m.id, HISTORICAL_FLAGS);
  }
  sql(srv, 'INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, ?, ?, ?)').run(m.id, user.id, name, code, type);
  reactionEvent(srv, 'add', user, m, name, code, type);
}

export function removeReaction(srv: ServerState, user: UserRow, messageId: number, spec: ReactionSpec): void {
  const m = accessMessage(srv, user, messageId);
  let code = spec.emojiCode;
  let type = spec.reactionType ?? 'unicode_emoji';
  if (code === undefined) {
    if (spec.emojiName === undefined) throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    const d = emojiData(srv, spec.emojiName);
    code = d.code;
    if (spec.reactionType === undefined) type = d.type;
  }
  const row = sql(srv, 'SELECT id, emoji_name FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?').get(m.id, user.id, code, type) as
    | { id: number; emoji_name: string }
    | undefined;
  if (!row) throw new JsonableError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
  sql(srv, 'DELETE FROM reactions WHERE id = ?').run(row.id);
  reactionEvent(srv, 'remove', user, m, row.emoji_name, code, type);
}
