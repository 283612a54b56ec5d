/**
 * Pure: the fields of a move (the inline editor's topic and channel, the "Move messages" and topic
 * rename / move dialogs), what counts as a change, and the `updateMessageMove` request they make.
 * As in Zulip's move form: which messages move (this one, this and later, the whole topic) and
 * the two automated notices (to the new topic, on by default; to the old one, off).
 */
import type { OperationRequest } from '../core/operations.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface MoveFields {
  fromChannelId: number;
  fromTopic: string;
  channelId: number;
  /** As typed; trimmed when compared and sent. */
  topic: string;
  propagate: PropagateMode;
  notifyNew: boolean;
  notifyOld: boolean;
}

export function moveFields(from: { channelId: number; topic: string }, propagate: PropagateMode): MoveFields {
  return { fromChannelId: from.channelId, fromTopic: from.topic, channelId: from.channelId, topic: from.topic, propagate, notifyNew: true, notifyOld: false };
}

export const PROPAGATE_CHOICES: readonly { value: PropagateMode; label: string }[] = [
  { value: 'change_one', label: 'Move only this message' },
  { value: 'change_later', label: 'Move this and all following messages in this topic' },
  { value: 'change_all', label: 'Move all messages in this topic' },
];

export function isPropagateMode(v: string): v is PropagateMode {
  return v === 'change_one' || v === 'change_later' || v === 'change_all';
}

const topicChanged = (f: MoveFields) => f.topic.trim() !== f.fromTopic;

/** The fields name another topic or channel than the messages are in. */
export function moveChanged(f: MoveFields): boolean {
  return topicChanged(f) || f.channelId !== f.fromChannelId;
}

export type MoveRequest = OperationRequest<'updateMessageMove'>;

/** The request for a move of `messageId` (and others per `propagate`), or null when nothing changes. */
export function moveRequest(messageId: number, f: MoveFields): MoveRequest | null {
  if (!moveChanged(f)) return null;
  return {
    message_id: messageId,
    ...(topicChanged(f) ? { topic: f.topic.trim() } : {}),
    ...(f.channelId !== f.fromChannelId ? { channel_id: f.channelId } : {}),
    propagate_mode: f.propagate,
    send_notification_to_old_thread: f.notifyOld,
    send_notification_to_new_thread: f.notifyNew,
  };
}

/**
 * Where a view of the moved topic should go: when the whole topic moved (or the rest of it from
 * the first message shown), the view follows it to its new name and channel, as Zulip does.
 * Null when the view stays.
 */
export function followMove(
  view: { channelId: number; topic: string } | null,
  req: Pick<MoveRequest, 'topic' | 'channel_id' | 'propagate_mode'>,
  from: { channelId: number; topic: string },
): { channelId: number; topic: string } | null {
  if (view === null || req.propagate_mode !== 'change_all') return null;
  if (view.channelId !== from.channelId || view.topic.toLowerCase() !== from.topic.toLowerCase()) return null;
  return { channelId: req.channel_id ?? from.channelId, topic: req.topic ?? from.topic };
}
