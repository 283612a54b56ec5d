/**
 * Pure: what the outbox means on screen. The header badge from the outbox counts, and a message's
 * marker from its `local` state (the outbox row behind it says whether it is a send or an edit).
 */
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { KindName, OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OutboxCounts, OutboxError, OutboxRowView } from '../../../sync/protocol/outbox.js';

export type BadgeTone = 'pending' | 'failed' | 'conflict';

export interface Badge {
  tone: BadgeTone;
  label: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The header's outbox badges, most urgent first; none when everything has reached the server. */
export function outboxBadges(c: OutboxCounts | null): Badge[] {
  if (c === null) return [];
  const out: Badge[] = [];
  if (c.conflict > 0) out.push({ tone: 'conflict', label: plural(c.conflict, 'conflict', 'conflicts') });
  if (c.failed > 0) out.push({ tone: 'failed', label: `${c.failed} failed` });
  if (c.pending > 0) out.push({ tone: 'pending', label: `${c.pending} pending` });
  return out;
}

/** The row kind that sends a new message (its local echo is the message shown). */
export const SEND_KIND = 'send_message' satisfies KindName;
/** The row kind that deletes a message (it stays shown, marked, until the server has deleted it). */
const DELETE_KIND = 'delete_message' satisfies KindName;

export type Marker =
  | { status: 'pending'; label: 'sending' | 'saving' | 'deleting'; outboxId: number | null }
  | { status: 'failed'; label: string; detail: string | null; reason: string | null; outboxId: number | null }
  | { status: 'conflict'; label: string; detail: string; reason: string | null; outboxId: number | null };

/**
 * The marker of a message with a local change, or null for the server's state. `kind` is the kind
 * of the row behind it, when the outbox list has it already (undefined otherwise).
 */
export function messageMarker(m: Pick<LocalMessage, 'local'>, kind: string | undefined): Marker | null {
  const { status, outbox_id: outboxId, error } = m.local;
  const sending = kind === SEND_KIND;
  switch (status) {
    case 'server':
      return null;
    case 'pending':
      // A row not listed yet: an edit is what the user could have started on a server message.
      return { status: 'pending', label: sending ? 'sending' : kind === DELETE_KIND ? 'deleting' : 'saving', outboxId };
    case 'failed':
      return { status: 'failed', label: failedLabel(kind), detail: error?.message ?? null, reason: technicalReason(error), outboxId };
    case 'conflict':
      return {
        status: 'conflict',
        label: 'Edited elsewhere meanwhile',
        // In words a reader can act on; the engine's own reason stays available (a tooltip).
        detail: 'Someone changed this message after you started editing it, and the two versions could not be merged.',
        reason: technicalReason(error),
        outboxId,
      };
  }
}

/**
 * The engine's reason in one line, for a tooltip ("api BAD_REQUEST: Your organization has turned
 * off message editing"); what the reader sees is the structured error's `message` alone.
 */
export function technicalReason(error: OutboxError | null): string | null {
  if (error === null) return null;
  return `${error.kind}${error.code === null ? '' : ` ${error.code}`}: ${error.message}`;
}

/** What a failed row on a message says it failed to do, by its kind. */
function failedLabel(kind: string | undefined): string {
  switch (kind) {
    case SEND_KIND:
      return 'Not sent';
    case 'add_or_remove_reaction':
      return 'Reaction not saved';
    case 'update_message_flags':
      return 'Star or read mark not saved';
    case 'update_message_move':
      return 'Move not saved';
    case DELETE_KIND:
      return 'Not deleted';
    case 'send_submessage' satisfies KindName:
      return 'Poll or to-do change not saved';
    default:
      return 'Edit not saved';
  }
}

/** Row kind by outbox id, for `messageMarker`. */
export function kindsById(rows: readonly Pick<OutboxRowView, 'outbox_id' | 'kind'>[]): Map<number, string> {
  return new Map(rows.map((r) => [r.outbox_id, r.kind]));
}

/**
 * Whether to offer "Edit": the user's own message, shown as the server has it or with an edit
 * pending (a new edit replaces it), but not a local echo still being sent, nor a failed or
 * conflicting change (those are settled with their own buttons first).
 */
export function canEdit(m: Pick<LocalMessage, 'sender_id' | 'local'>, ownUserId: number | null, kind: string | undefined): boolean {
  if (ownUserId === null || m.sender_id !== ownUserId) return false;
  if (m.local.status === 'server') return true;
  return m.local.status === 'pending' && kind !== undefined && kind !== SEND_KIND;
}

/** What `updateMessageMove` takes (the contract's request), for the partial move offer. */
export interface MoveRequest {
  message_id: number;
  topic?: string;
  channel_id?: number;
  propagate_mode: 'change_later';
  send_notification_to_old_thread: boolean;
  send_notification_to_new_thread: boolean;
}

/**
 * A topic move the server refused because some messages are past the realm's move limit
 * (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED) can still move the messages the user may move: the same
 * move, `change_later` from `first_message_id_allowed_to_move`, as Zulip web offers. Null when the
 * row is not such a failure (or the server allows none).
 */
export function partialMoveOffer(row: OutboxRowOf | undefined): { request: MoveRequest; label: string } | null {
  if (!row || row.kind !== 'update_message_move' || row.args === null || row.state !== 'failed' || row.last_error?.code !== 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED') return null;
  const d = row.last_error.details ?? {};
  const first = d['first_message_id_allowed_to_move'];
  if (typeof first !== 'number') return null;
  const a = row.args;
  const request: MoveRequest = {
    message_id: first,
    ...(a.topic !== undefined ? { topic: a.topic } : {}),
    ...(a.stream_id !== undefined ? { channel_id: a.stream_id } : {}),
    propagate_mode: 'change_later',
    send_notification_to_old_thread: a.send_notification_to_old_thread,
    send_notification_to_new_thread: a.send_notification_to_new_thread,
  };
  const allowed = d['total_messages_allowed_to_move'];
  const total = d['total_messages_in_topic'];
  const label =
    typeof allowed === 'number' && typeof total === 'number'
      ? `Move the ${allowed} of ${total} messages you may move`
      : 'Move the messages you may move';
  return { request, label };
}
