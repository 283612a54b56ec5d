/** Stored message rows → the UI's `LocalMessage` (sync/protocol/messages.ts). */
import type { Message } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { LOCAL_ECHO_MIN_ID, rowToMessage } from '../../db/queries/messages.js';
import { cachedStatement } from '../../db/queries/statements.js';
import { outboxErrorView } from '../../outbox/errors.js';
import { messageFlags } from '../../outbox/mutations/message-flags.js';
import { messageReaction } from '../../outbox/mutations/message-reaction.js';
import { SERVER_STATE, type LocalMessage, type LocalState } from '../../protocol/messages.js';

/** What the readers select for each message: `channel_name` from the channels table, not the
 * message's `display_recipient`, so a renamed channel shows its current name; `local`, the outbox
 * row shown on the message (JSON `[id, state, last_error]`), or null. */
export interface ViewRow {
  readonly id: number;
  readonly flags: number;
  readonly json: string;
  readonly channel_name: string | null;
  readonly local: string | null;
}

const MARKER = 'json_array(o.id, o.state, json(o.last_error))';
const BASE_COLUMNS = 'm.id, m.flags, m.json, (SELECT c.name FROM channels c WHERE c.id = m.channel_id) AS channel_name';
/** A local echo shows its `message_send` row (by id: the echo's id is LOCAL_ECHO_MIN_ID + the row id). */
const ECHO_MARKER = `CASE WHEN m.id > ${LOCAL_ECHO_MIN_ID} THEN (SELECT ${MARKER} FROM outbox o WHERE o.id = m.id - ${LOCAL_ECHO_MIN_ID}) END`;
/** A live row on `message:<id>`: a conflict first, then a failure, then the newest. */
const ROW_MARKER = `(SELECT ${MARKER} FROM outbox o WHERE o.entity_key = 'message:' || m.id AND o.state NOT IN ('done', 'discarded')
  ORDER BY o.state = 'conflict' DESC, o.state = 'failed' DESC, o.id DESC LIMIT 1)`;

/**
 * A failed reaction or flag change (star, read) is shown on the message it was for, though its row
 * is keyed elsewhere (`reaction:<id>:…`, `flags:<flag>` over many messages). Failed rows are few.
 */
const FAILED_ELSEWHERE = `(SELECT ${MARKER} FROM outbox o WHERE o.state = 'failed' AND o.kind IN ('${messageReaction.kind}', '${messageFlags.kind}')
  AND (o.entity_key LIKE 'reaction:' || m.id || ':%' OR (o.kind = '${messageFlags.kind}' AND EXISTS (SELECT 1 FROM json_each(o.args, '$.messages') j WHERE j.value = m.id)))
  ORDER BY o.id DESC LIMIT 1)`;

/** Every column but the live-row probe: right whenever no outbox row is live. */
export const VIEW_COLUMNS = `${BASE_COLUMNS}, ${ECHO_MARKER} AS local`;
const VIEW_COLUMNS_WITH_ROWS = `${BASE_COLUMNS}, coalesce(${ROW_MARKER}, ${FAILED_ELSEWHERE}, ${ECHO_MARKER}) AS local`;

/**
 * What the readers select. `local` is the outbox row shown on the message; probing the outbox's
 * live-rows index for every message costs about 0.02 ms per 50-message page, so it is only in the
 * statement while some row is live (one EXISTS on that partial index per read). Inline constants
 * only: the readers bind the narrow's parameters positionally.
 */
export function viewColumns(db: LocalDb): string {
  return cachedStatement(db, "SELECT EXISTS (SELECT 1 FROM outbox WHERE state NOT IN ('done', 'discarded'))").pluck().get() === 1 ? VIEW_COLUMNS_WITH_ROWS : VIEW_COLUMNS;
}

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

export function toLocalMessage(m: Message, channelName: string | null, local: LocalState = SERVER_STATE): LocalMessage {
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
    local,
  };
}

export function rowToLocalMessage(r: ViewRow): LocalMessage {
  return toLocalMessage(rowToMessage(r.json, r.flags), r.channel_name, localStateOf(r.local));
}
