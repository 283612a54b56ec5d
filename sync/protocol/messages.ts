/**
 * The message as the UI sees it (engine → renderer). Environment-neutral: zod only, so the
 * renderer can parse what crosses IPC with the same schema the engine builds it from.
 *
 * Names follow the API's modern vocabulary (`channel` / `direct`, `topic`), not the legacy
 * `stream` / `private` / `subject` still found in server message objects.
 *
 * Built at import, unlike most schemas (docs/architecture.md rule 3): parsed per element of every
 * snapshot and change set, where a `z.lazy` in front would slow each parse.
 */
import * as z from 'zod';
import { outboxErrorSchema } from './outbox.js';

const int = z.number().int();

export const localReactionSchema = z.object({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.string(),
  user_id: int,
});
export type LocalReaction = z.output<typeof localReactionSchema>;

/** A submessage as the API has it; a negative id is the user's own, not yet on the server. */
export const localSubmessageSchema = z.object({ id: int, sender_id: int, msg_type: z.string(), content: z.string() });
export type LocalSubmessage = z.output<typeof localSubmessageSchema>;

export const dmParticipantSchema = z.object({ id: int, email: z.string(), full_name: z.string() });
export type DmParticipant = z.output<typeof dmParticipantSchema>;

/**
 * Whether what is shown is the server's state or has a local change of the outbox applied on top:
 * `pending` (queued or being sent; every local echo of a message being sent), `failed` (a person
 * retries, edits or discards it) or `conflict` (edited elsewhere meanwhile: keep mine, take
 * theirs or edit the merge). Live views re-emit the message as `updated` when its row changes.
 */
export const localStateSchema = z.object({
  status: z.enum(['server', 'pending', 'failed', 'conflict']),
  /** The outbox row behind a non-`server` status. */
  outbox_id: int.nullable(),
  /** Why it failed or conflicts, for the message's inline banner (structured: no string to parse). */
  error: outboxErrorSchema.nullable(),
});
export type LocalState = z.output<typeof localStateSchema>;

export const SERVER_STATE: LocalState = { status: 'server', outbox_id: null, error: null };

export const localMessageSchema = z.object({
  id: int,
  type: z.enum(['channel', 'direct']),
  channel_id: int.nullable(),
  channel_name: z.string().nullable(),
  /** `""` is the empty topic (show the realm's display name); always `""` for direct messages. */
  topic: z.string(),
  /** Everyone in a direct conversation, self included; empty for channel messages. */
  dm_participants: z.array(dmParticipantSchema),
  sender_id: int,
  sender_full_name: z.string(),
  sender_email: z.string(),
  avatar_url: z.string().nullable(),
  /** UNIX seconds. */
  timestamp: int,
  /** Rendered HTML from the server: the renderer must sanitise it before display. */
  content: z.string(),
  is_me_message: z.boolean(),
  flags: z.array(z.string()),
  reactions: z.array(localReactionSchema),
  /** UNIX seconds of the last content edit, and of the last move; null if never. */
  last_edit_timestamp: int.nullable(),
  last_moved_timestamp: int.nullable(),
  local: localStateSchema,
  /**
   * The message's submessages (Zulip's widgets: a `/poll` or `/todo` and everything done with it),
   * the user's pending ones included under negative ids (outbox `send_submessage`). Absent: none.
   */
  submessages: z.array(localSubmessageSchema).optional(),
  /**
   * In the view of a search fetched online: the server's content and topic with the matched words
   * marked (`<span class="highlight">`, Zulip's `match_content` / `match_subject`; HTML to sanitise
   * like `content`). Absent offline, in other views, and once the message changed since.
   */
  match_content: z.string().optional(),
  match_subject: z.string().optional(),
});
export type LocalMessage = z.output<typeof localMessageSchema>;
