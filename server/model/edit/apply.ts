/**
 * Writing a validated edit (Zulip's do_update_message): new content (re-rendered, mention flags,
 * attachments, search index), moved messages (channel, topic, who keeps a user_messages row),
 * edit history entries, `last_edit_timestamp` / `last_moved_timestamp`, the `update_message` event,
 * `delete_message` for users who lose access, topic-preference migration, and the automated notices.
 */
import { seconds } from '../../clock.js';
import { emit } from '../../events/emit.js';
import type { ServerState } from '../../state.js';
import { subscriberIds } from '../access.js';
import { usersAlertedBy } from '../alert-words.js';
import { FLAG, flagNames, MENTION_BITS } from '../flags.js';
import type { EditHistoryEntry } from '../messages.js';
import { mentionedUserIds, mentionFlags, topicParticipants } from '../message-send.js';
import { indexMessage } from '../search.js';
import { topicKey } from '../../../common/topic-key.js';
import { detachedUploads, syncAttachments } from '../uploads.js';
import type { UserRow } from '../users.js';
import { deleteMessageEvents } from './delete.js';
import { updateMessageEvent, type UpdateMessageEventData } from './event.js';
import { appendHistory } from './history.js';
import { sendMoveNotices } from './move-notices.js';
import { accessibleTopicMessages, messagesToChange } from './propagation.js';
import { eventRecipientIds, userMessageHolders } from './recipients.js';
import { isMoved, isResolveToggle, type EditRequest } from './request.js';
import { migrateUserTopics } from './user-topics.js';

export interface EditResult {
  readonly changedMessageIds: number[];
  readonly detachedUploads: unknown[];
}

const idsOf = (srv: ServerState, sql: string, ...args: unknown[]) => new Set(srv.db.prepare(sql).pluck().all(...args) as number[]);

/** New content for the target message; returns the attachment ids the edit unlinked. */
function applyContent(srv: ServerState, r: EditRequest, entry: EditHistoryEntry, now: number): number[] {
  const { message: m, content } = r;
  if (!content) return [];
  const html = content.rendered.html;
  entry.prev_content = m.content;
  entry.prev_rendered_content = m.rendered_content;
  srv.db
    .prepare('UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ?, has_link = ?, has_image = ?, last_edit_timestamp = ? WHERE id = ?')
    .run(content.content, html, content.rendered.isMe ? 1 : 0, content.rendered.hasLink ? 1 : 0, content.rendered.hasImage ? 1 : 0, now, m.id);
  const { unlinked } = syncAttachments(srv, m.id, content.rendered);
  // Mention and alert-word flags follow the new content (Zulip's update_user_message_flags).
  const mentioned = mentionedUserIds(srv, content.rendered);
  const participants = r.origChannel && content.rendered.topicWildcard ? topicParticipants(srv, r.origChannel.id, r.targetTopic) : new Set<number>();
  participants.add(m.sender_id);
  const rows = srv.db.prepare('SELECT user_id, flags FROM user_messages WHERE message_id = ?').all(m.id) as Array<{ user_id: number; flags: number }>;
  const alerted = usersAlertedBy(srv, content.content, rows.map((row) => row.user_id), m.sender_id);
  const update = srv.db.prepare('UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?');
  for (const row of rows) {
    const bits =
      (row.flags & ~MENTION_BITS & ~FLAG.has_alert_word) |
      mentionFlags(row.user_id, content.rendered, mentioned, participants) |
      (alerted.has(row.user_id) ? FLAG.has_alert_word : 0);
    if (bits !== row.flags) update.run(bits, row.user_id, m.id);
  }
  return unlinked;
}

interface AccessChange {
  readonly losingRows: Set<number>;
  readonly losingAccess: Set<number>;
  readonly gaining: Set<number>;
  readonly newSubscribers: Set<number>;
}

/**
 * A channel move: who loses their user_messages rows (everyone not subscribed to the destination),
 * who loses access (all of them for a private destination, only guests for a public one), and who
 * gains rows (the destination's subscribers, when its history is protected).
 */
function accessChange(srv: ServerState, r: EditRequest, changed: readonly number[]): AccessChange {
  const orig = r.origChannel!;
  const target = r.targetChannel!;
  const newSubscribers = idsOf(srv, 'SELECT user_id FROM subscriptions WHERE channel_id = ? AND active = 1', target.id);
  const oldAll = idsOf(srv, 'SELECT user_id FROM subscriptions WHERE channel_id = ?', orig.id);
  for (const id of userMessageHolders(srv, changed)) oldAll.add(id);
  const losingRows = new Set([...oldAll].filter((id) => !newSubscribers.has(id)));
  const guests = idsOf(srv, 'SELECT id FROM users WHERE role = 600');
  const losingAccess = target.invite_only ? losingRows : new Set([...losingRows].filter((id) => guests.has(id)));
  const gaining = target.history_public_to_subscribers ? new Set<number>() : newSubscribers;
  return { losingRows, losingAccess, gaining, newSubscribers };
}

function moveMessages(srv: ServerState, r: EditRequest, changed: readonly number[], entry: EditHistoryEntry, now: number): void {
  const target = r.targetChannel!;
  const moveEntry: EditHistoryEntry = { user_id: entry.user_id, timestamp: entry.timestamp };
  if (r.isTopicEdited) Object.assign(moveEntry, { prev_topic: r.origTopic, topic: r.targetTopic });
  if (r.isStreamEdited) Object.assign(moveEntry, { prev_stream: r.origChannel!.id, stream: target.id });
  const countsAsMove = r.isStreamEdited || !isResolveToggle(r);
  const update = srv.db.prepare(
    `UPDATE messages SET channel_id = ?, recipient_id = ?, topic = ?, topic_key = ?, last_moved_timestamp = CASE WHEN ? THEN ? ELSE last_moved_timestamp END WHERE id = ?`,
  );
  const key = topicKey(r.targetTopic);
  for (const id of changed) {
    update.run(target.id, target.recipient_id, r.targetTopic, key, countsAsMove ? 1 : 0, now, id);
    if (id !== r.message.id) appendHistory(srv, id, moveEntry);
  }
}

function reindex(srv: ServerState, ids: readonly number[]): void {
  const get = srv.db.prepare('SELECT topic, rendered_content FROM messages WHERE id = ?');
  for (const id of ids) {
    const row = get.get(id) as { topic: string; rendered_content: string } | undefined;
    if (row) indexMessage(srv, id, row.topic, row.rendered_content);
  }
}

/** Writes the edit and sends its events and notices. */
export function applyEdit(srv: ServerState, actor: UserRow, r: EditRequest): EditResult {
  const now = seconds(srv.clock);
  const m = r.message;
  const entry: EditHistoryEntry = { user_id: actor.id, timestamp: now };
  const unlinked = applyContent(srv, r, entry, now);
  const data: UpdateMessageEventData = { actor, request: r, now, messageIds: [m.id] };

  if (!r.origChannel || !r.targetChannel) {
    appendHistory(srv, m.id, entry);
    reindex(srv, [m.id]);
    emitUpdate(srv, data, eventRecipientIds(srv, [m.id], null), new Set());
    return { changedMessageIds: [m.id], detachedUploads: detachedUploads(srv, actor.id, unlinked) };
  }
  const orig = r.origChannel;
  const target = r.targetChannel;
  if (r.isStreamEdited) Object.assign(entry, { prev_stream: orig.id, stream: target.id });
  if (r.isTopicEdited) Object.assign(entry, { prev_topic: r.origTopic, topic: r.targetTopic });
  appendHistory(srv, m.id, entry);

  const changed = messagesToChange(srv, actor, r);
  data.messageIds = changed;
  const targetTopicHadMessages = isMoved(r) && !!srv.db.prepare('SELECT 1 FROM messages WHERE channel_id = ? AND topic_key = ?').get(target.id, topicKey(r.targetTopic));
  let access: AccessChange | undefined;
  if (isMoved(r)) {
    if (r.isStreamEdited) access = accessChange(srv, r, changed);
    moveMessages(srv, r, changed, entry, now);
  }
  reindex(srv, r.content ? [...new Set([m.id, ...(isMoved(r) ? changed : [])])] : isMoved(r) ? changed : []);

  if (access) {
    const insert = srv.db.prepare('INSERT OR IGNORE INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
    const remove = srv.db.prepare('DELETE FROM user_messages WHERE user_id = ? AND message_id = ?');
    for (const id of changed) {
      for (const uid of access.gaining) insert.run(uid, id, FLAG.read);
      for (const uid of access.losingRows) remove.run(uid, id);
    }
    const sample = { id: r.message.id, type: 'stream' as const, channel_id: orig.id, topic: r.origTopic };
    emit(srv, access.losingAccess, (q) => deleteMessageEvents(srv, q, sample, changed));
  }

  emitUpdate(srv, data, updateRecipients(srv, r, access), access?.losingAccess ?? new Set());

  if (isMoved(r)) {
    const movedAllVisible = r.propagateMode === 'change_all' || accessibleTopicMessages(srv, actor, orig, r.origTopic).length === 0;
    if (movedAllVisible) migrateUserTopics(srv, r, access?.losingAccess ?? new Set(), targetTopicHadMessages);
    sendMoveNotices(srv, actor, r, changed, movedAllVisible);
  }
  return { changedMessageIds: changed, detachedUploads: detachedUploads(srv, actor.id, unlinked) };
}

/**
 * Everyone holding a user_messages row for the target message, plus (when the origin channel's
 * history is shared) the destination's subscribers and, on a channel move, the origin's
 * subscribers who are not in the destination, minus users who lost access and guests who only
 * now see the messages (Zulip excludes them too).
 */
function updateRecipients(srv: ServerState, r: EditRequest, access: AccessChange | undefined): Set<number> {
  const recipients = userMessageHolders(srv, [r.message.id]);
  const orig = r.origChannel!;
  if (!orig.history_public_to_subscribers) return recipients;
  const targetSubs = new Set(subscriberIds(srv, r.targetChannel!.id));
  const extra = new Set(targetSubs);
  if (access) {
    const origSubs = new Set(subscriberIds(srv, orig.id));
    for (const id of origSubs) if (!targetSubs.has(id)) extra.add(id);
    const guests = idsOf(srv, 'SELECT id FROM users WHERE role = 600');
    for (const id of [...extra]) {
      if (access.losingAccess.has(id) || (guests.has(id) && !origSubs.has(id))) extra.delete(id);
    }
  }
  for (const id of extra) recipients.add(id);
  return recipients;
}

function emitUpdate(srv: ServerState, data: UpdateMessageEventData, recipients: Set<number>, excluded: Set<number>): void {
  const flagsByUser = new Map<number, string[]>();
  const get = srv.db.prepare('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').pluck();
  for (const uid of recipients) {
    if (excluded.has(uid)) continue;
    const bits = get.get(uid, data.request.message.id) as number | undefined;
    flagsByUser.set(uid, bits === undefined ? ['read'] : flagNames(bits));
  }
  emit(srv, flagsByUser.keys(), (q) => updateMessageEvent(srv, q, data, flagsByUser.get(q.userId) ?? ['read']));
}
