/**
 * What the Notification Bot says after a move (Zulip's do_update_message tail):
 *
 * - Resolving / unresolving a topic (topic change only): "@_**Iago|5** has marked this topic as
 *   resolved." in the new topic; undoing within 60 seconds deletes the previous notice instead
 *   (RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS). The notice starts unread only per each subscriber's
 *   `resolved_topic_notice_auto_read_policy` (default: for users following the topic).
 * - `send_notification_to_old_thread` (default false): "This topic was moved to #**Denmark>new** by
 *   @_**Iago|5**." (or "A message was moved…" / "N messages were moved…").
 * - `send_notification_to_new_thread` (default true), not for a resolve/unresolve-only move:
 *   "This topic was moved here from #**Verona>old** by @_**Iago|5**." (or "[A message](link) was
 *   moved here…" / "N messages were moved here…").
 */
import { seconds } from '../../clock.js';
import type { ServerState } from '../../state.js';
import { topicKey } from '../../../common/topic-key.js';
import { subscriberIds } from '../access.js';
import { getUserSetting } from '../user-settings.js';
import { userTopicPolicy, VISIBILITY_POLICY } from '../user-topics.js';
import { getUser, type UserRow } from '../users.js';
import { deleteMessages } from './delete.js';
import { getStoredMessage } from './load.js';
import { messageUrl, NOTIFICATION_BOT_EMAIL, postNotice, silentMention, topicLink } from './notices.js';
import { accessibleTopicMessages } from './propagation.js';
import { isResolveToggle, type EditRequest } from './request.js';

export const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS = 60;
const RESOLVE_NOTICE = /has marked this topic as (?:un)?resolved\.$/;

/** Deletes the topic's last message when it is a resolve notice younger than the grace period. */
function undoRecentResolveNotice(srv: ServerState, channelId: number, topic: string): boolean {
  const last = srv.db.prepare('SELECT id FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id DESC LIMIT 1').pluck().get(channelId, topicKey(topic)) as
    | number
    | undefined;
  const m = last === undefined ? undefined : getStoredMessage(srv, last);
  if (!m || getUser(srv, m.sender_id)?.email !== NOTIFICATION_BOT_EMAIL || !RESOLVE_NOTICE.test(m.content)) return false;
  if (seconds(srv.clock) - m.date_sent > RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS) return false;
  deleteMessages(srv, [m]);
  return true;
}

/** Subscribers for whom a resolve notice starts unread (Zulip's resolved_topic_notice_auto_read_policy). */
function resolveNoticeUnreadUsers(srv: ServerState, channelId: number, topic: string): Set<number> {
  const out = new Set<number>();
  for (const uid of subscriberIds(srv, channelId)) {
    if (getUser(srv, uid)?.is_bot) continue;
    const policy = getUserSetting(srv, uid, 'resolved_topic_notice_auto_read_policy');
    if (policy === 'never') out.add(uid);
    else if (policy === 'except_followed' && userTopicPolicy(srv, uid, channelId, topic) === VISIBILITY_POLICY.followed) out.add(uid);
  }
  return out;
}

function sendResolveNotice(srv: ServerState, actor: UserRow, r: EditRequest): number | null {
  const ch = r.origChannel;
  if (!ch || !isResolveToggle(r) || r.content || r.isStreamEdited) return null;
  if (undoRecentResolveNotice(srv, ch.id, r.targetTopic)) return null;
  const what = r.topicResolved ? 'resolved' : 'unresolved';
  return postNotice(srv, ch, r.targetTopic, `${silentMention(actor)} has marked this topic as ${what}.`, {
    actor,
    unreadOnlyFor: resolveNoticeUnreadUsers(srv, ch.id, r.targetTopic),
  });
}

export function sendMoveNotices(srv: ServerState, actor: UserRow, r: EditRequest, changed: readonly number[], movedAllVisible: boolean): void {
  const orig = r.origChannel;
  const target = r.targetChannel;
  if (!orig || !target) return;
  const resolveNoticeId = r.isTopicEdited ? sendResolveNotice(srv, actor, r) : null;
  const user = silentMention(actor);
  const count = changed.length;

  let newThread: string | null = null;
  if (r.sendNotificationToNewThread && (r.isStreamEdited || (r.isTopicEdited && !isResolveToggle(r)))) {
    const oldLocation = topicLink(srv, orig, r.origTopic);
    const excluded = new Set([...changed, ...(resolveNoticeId === null ? [] : [resolveNoticeId])]);
    const preexisting = accessibleTopicMessages(srv, actor, target, r.targetTopic).some((m) => !excluded.has(m.id));
    if (!preexisting && movedAllVisible) newThread = `This topic was moved here from ${oldLocation} by ${user}.`;
    else if (count === 1) newThread = `[A message](${messageUrl(srv, target, r.targetTopic, r.message.id)}) was moved here from ${oldLocation} by ${user}.`;
    else newThread = `${count} messages were moved here from ${oldLocation} by ${user}.`;
  }
  let oldThread: string | null = null;
  if (r.sendNotificationToOldThread) {
    const newLocation = topicLink(srv, target, r.targetTopic);
    if (movedAllVisible) oldThread = `This topic was moved to ${newLocation} by ${user}.`;
    else if (count === 1) oldThread = `A message was moved from this topic to ${newLocation} by ${user}.`;
    else oldThread = `${count} messages were moved from this topic to ${newLocation} by ${user}.`;
  }
  if (newThread !== null) postNotice(srv, target, r.targetTopic, newThread, { actor });
  if (oldThread !== null) postNotice(srv, orig, r.origTopic, oldThread, { actor });
}

