/**
 * The contract's outbox commands (sync/protocol/outbox.ts) turned into outbox rows: ids the UI
 * holds mapped to what the kinds need (a local echo's id, a snippet's negative local id), the
 * base the user saw, and deadlines from the realm's edit and move limits (docs/sync-design.md
 * "Deadlines"). Each returns at once; nothing here touches the network.
 */
import { z } from 'zod';
import type { LocalDb } from '../db/open.js';
import { getStoredMessage, LOCAL_ECHO_MIN_ID } from '../db/queries/messages.js';
import { getRealmEditingSettings } from '../db/queries/realm.js';
import { getAccount } from '../db/queries/state.js';
import { getUser } from '../db/queries/users.js';
import { getSavedSnippets, getScheduledMessages as localScheduled } from '../db/queries/personal.js';
import { markNarrowRead, markNarrowReadArgs } from '../outbox/mutations/mark-narrow-read.js';
import { markTopicRead } from '../outbox/mutations/mark-topic-read.js';
import { messageFlags } from '../outbox/mutations/message-flags.js';
import { messageReaction } from '../outbox/mutations/message-reaction.js';
import { contentEditBaseOf, messageContentEdit } from '../outbox/mutations/message-content-edit.js';
import { messageMove, RESOLVED_PREFIX } from '../outbox/mutations/message-move.js';
import { echoIdOf, localIdOfEcho, MESSAGE_SEND_KIND, messageSendArgs } from '../outbox/mutations/message-send.js';
import { savedSnippetCreate } from '../outbox/mutations/saved-snippet-create.js';
import { savedSnippetDelete } from '../outbox/mutations/saved-snippet-delete.js';
import { savedSnippetEdit } from '../outbox/mutations/saved-snippet-edit.js';
import { scheduledMessageCreate } from '../outbox/mutations/scheduled-message-create.js';
import { scheduledMessageDelete } from '../outbox/mutations/scheduled-message-delete.js';
import { scheduledMessageEdit } from '../outbox/mutations/scheduled-message-edit.js';
import { scheduledMessageSendNow } from '../outbox/mutations/scheduled-message-send-now.js';
import { localSnippetId } from '../outbox/mutations/snippet-local.js';
import { userGroupMembers } from '../outbox/mutations/user-group-members.js';
import { GROUP_PERMISSIONS, userGroupPermissions } from '../outbox/mutations/user-group-permissions.js';
import { userGroupReactivate } from '../outbox/mutations/user-group-reactivate.js';
import { userGroupSubgroups } from '../outbox/mutations/user-group-subgroups.js';
import { userGroupUpdate } from '../outbox/mutations/user-group-update.js';
import { userTopicSet } from '../outbox/mutations/user-topic-set.js';
import type { EnqueueResult } from '../outbox/store.js';
import type { Enqueued, outboxCommands } from '../protocol/outbox.js';
import { deleteDraftOf, type DraftTarget } from './drafts.js';
import { OutboxIntentError, type SessionOutbox } from './session-outbox.js';

type Req<N extends keyof typeof outboxCommands> = z.output<(typeof outboxCommands)[N]['request']>;

const answer = (r: EnqueueResult): Enqueued => ({ outbox_id: r.id, outcome: r.outcome });
const seconds = (ms: number) => Math.floor(ms / 1000);

export class OutboxIntents {
  constructor(
    private readonly db: LocalDb,
    private readonly outbox: SessionOutbox,
  ) {}

  editMessage(r: Req<'editMessage'>): Enqueued {
    const localId = localIdOfEcho(r.message_id);
    if (localId !== undefined) return this.editUnsent(localId, r.content);
    return answer(this.outbox.enqueue(messageContentEdit, { message_id: r.message_id, content: r.content }, contentEditBaseOf(r.base_raw_content), { deadlineAt: this.editDeadline(r.message_id) }));
  }

  moveMessages(r: Req<'moveMessages'>): Enqueued {
    this.notUnsent(r.message_id);
    const args = {
      message_id: r.message_id,
      ...(r.topic !== undefined ? { topic: r.topic } : {}),
      ...(r.channel_id !== undefined ? { stream_id: r.channel_id } : {}),
      propagate_mode: r.propagate_mode,
      send_notification_to_old_thread: r.send_notification_to_old_thread,
      send_notification_to_new_thread: r.send_notification_to_new_thread,
    };
    return answer(this.outbox.enqueue(messageMove, args, null, { deadlineAt: this.moveDeadline(r.message_id, r.channel_id !== undefined, r.propagate_mode) }));
  }

  resolveTopic(r: Req<'resolveTopic'>): Enqueued {
    this.notUnsent(r.message_id);
    const m = getStoredMessage(this.db, r.message_id);
    if (!m || m.type !== 'stream') throw new OutboxIntentError('resolveTopic needs a cached channel message');
    const bare = m.subject.startsWith(RESOLVED_PREFIX) ? m.subject.slice(RESOLVED_PREFIX.length) : m.subject;
    const topic = r.resolved ? RESOLVED_PREFIX + bare : bare;
    if (topic === m.subject) throw new OutboxIntentError(r.resolved ? 'the topic is already resolved' : 'the topic is not resolved');
    return this.moveMessages({ message_id: r.message_id, topic, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true });
  }

  sendMessage(r: Req<'sendMessage'>): Enqueued & { message_id: number } {
    const self = getAccount(this.db)?.user_id ?? undefined;
    // Zulip names a conversation without the sender (unless it is with oneself).
    const others = r.to.type === 'direct' ? r.to.user_ids.filter((u) => u !== self) : [];
    const to =
      r.to.type === 'channel'
        ? { type: 'channel' as const, stream_id: r.to.channel_id, topic: r.to.topic }
        : { type: 'direct' as const, user_ids: others.length > 0 ? others : r.to.user_ids };
    // The conversation's draft goes in the transaction that queues the send: never both, never neither.
    const draft: DraftTarget = r.to.type === 'channel' ? { type: 'channel', channel_id: r.to.channel_id, topic: r.to.topic } : { type: 'direct', user_ids: r.to.user_ids };
    const res = this.outbox.send(to, r.content, seconds(this.outbox.now()), (changes) => void deleteDraftOf(this.db, draft, changes));
    return { ...answer(res), message_id: echoIdOf(String(res.id)) };
  }

  setTopicVisibility(r: Req<'setTopicVisibility'>): Enqueued {
    return answer(this.outbox.enqueue(userTopicSet, { stream_id: r.channel_id, topic: r.topic, visibility_policy: r.visibility_policy }, null));
  }

  markTopicRead(r: Req<'markTopicRead'>): Enqueued {
    return answer(this.outbox.enqueue(markTopicRead, { stream_id: r.channel_id, topic_name: r.topic }, null));
  }

  createSnippet(r: Req<'createSnippet'>): Enqueued & { snippet_id: number } {
    const tmp = this.outbox.newTempId();
    // Snippets made offline have negative local ids: the highest positive one is the server's.
    const afterId = Math.max(0, ...getSavedSnippets(this.db).map((s) => s.id));
    const res = this.outbox.enqueue(savedSnippetCreate, { tmp_id: tmp, title: r.title, content: r.content }, { enqueued_at: seconds(this.outbox.now()), after_id: afterId });
    return { ...answer(res), snippet_id: localSnippetId(tmp) ?? 0 };
  }

  editSnippet(r: Req<'editSnippet'>): Enqueued {
    const args = { saved_snippet_id: this.tempRef(r.snippet_id), ...(r.title !== undefined ? { title: r.title } : {}), ...(r.content !== undefined ? { content: r.content } : {}) };
    return answer(this.outbox.enqueue(savedSnippetEdit, args, null));
  }

  deleteSnippet(r: Req<'deleteSnippet'>): Enqueued {
    return answer(this.outbox.enqueue(savedSnippetDelete, { saved_snippet_id: this.tempRef(r.snippet_id) }, null));
  }

  updateUserGroup(r: Req<'updateUserGroup'>): { outbox_ids: number[] } {
    const ids: number[] = [];
    if (r.name !== undefined || r.description !== undefined) {
      ids.push(this.outbox.enqueue(userGroupUpdate, { user_group_id: r.user_group_id, name: r.name, description: r.description }, null).id);
    }
    if (r.permissions !== undefined && Object.keys(r.permissions).length > 0) {
      const known = new Set<string>(GROUP_PERMISSIONS);
      const unknown = Object.keys(r.permissions).filter((k) => !known.has(k));
      if (unknown.length > 0) throw new OutboxIntentError(`unknown group permissions: ${unknown.join(', ')}`);
      const args = userGroupPermissions.argsSchema.safeParse({ user_group_id: r.user_group_id, settings: r.permissions });
      if (!args.success) throw new OutboxIntentError(`user_group_permissions: ${z.prettifyError(args.error)}`);
      ids.push(this.outbox.enqueue(userGroupPermissions, args.data, null).id);
    }
    if (ids.length === 0) throw new OutboxIntentError('nothing to change');
    return { outbox_ids: ids };
  }

  updateUserGroupMembers(r: Req<'updateUserGroupMembers'>): Enqueued {
    return answer(this.outbox.enqueue(userGroupMembers, { user_group_id: r.user_group_id, add: r.add, delete: r.delete }, null));
  }

  updateUserGroupSubgroups(r: Req<'updateUserGroupSubgroups'>): Enqueued {
    if (r.add.includes(r.user_group_id)) throw new OutboxIntentError('a group cannot be its own subgroup');
    return answer(this.outbox.enqueue(userGroupSubgroups, { user_group_id: r.user_group_id, add: r.add, delete: r.delete }, null));
  }

  reactivateUserGroup(r: Req<'reactivateUserGroup'>): Enqueued {
    return answer(this.outbox.enqueue(userGroupReactivate, { user_group_id: r.user_group_id }, null));
  }

  setMessageFlags(r: Req<'setMessageFlags'>): Enqueued {
    // A message still being sent has no server id: it is read (ours), and is starred once it lands.
    const ids = r.message_ids.filter((id) => id < LOCAL_ECHO_MIN_ID);
    if (ids.length === 0) throw new OutboxIntentError('the message is being sent: change its flags once it has arrived');
    return answer(this.outbox.enqueue(messageFlags, { messages: ids, op: r.op, flag: r.flag }, null));
  }

  markNarrowRead(r: Req<'markNarrowRead'>): Enqueued {
    const args = markNarrowReadArgs.safeParse({ narrow: r.narrow });
    if (!args.success) throw new OutboxIntentError(`markNarrowRead: ${z.prettifyError(args.error)}`);
    return answer(this.outbox.enqueue(markNarrowRead, args.data, null));
  }

  setReaction(r: Req<'setReaction'>): Enqueued {
    this.notUnsent(r.message_id);
    return answer(this.outbox.enqueue(messageReaction, r, null));
  }

  createScheduledMessage(r: Req<'createScheduledMessage'>): Enqueued & { scheduled_message_id: number } {
    const tmp = this.outbox.newTempId();
    const recipient = r.to.type === 'channel' ? { type: 'channel' as const, to: r.to.channel_id, topic: r.to.topic } : { type: 'direct' as const, to: r.to.user_ids };
    const res = this.outbox.enqueue(scheduledMessageCreate, { tmp_id: tmp, recipient, content: r.content, scheduled_delivery_timestamp: r.scheduled_delivery_timestamp }, null);
    return { ...answer(res), scheduled_message_id: localSnippetId(tmp) ?? 0 };
  }

  deleteScheduledMessage(r: Req<'deleteScheduledMessage'>): Enqueued {
    return answer(this.outbox.enqueue(scheduledMessageDelete, { scheduled_message_id: this.tempRef(r.scheduled_message_id) }, null));
  }

  editScheduledMessage(r: Req<'editScheduledMessage'>): Enqueued {
    const rc = r.recipient;
    const recipient = rc === undefined ? undefined : rc.type === 'channel' ? { type: 'channel' as const, to: rc.channel_id, topic: rc.topic } : { type: 'direct' as const, to: this.dmRecipients(rc.user_ids) };
    const args = {
      scheduled_message_id: this.tempRef(r.scheduled_message_id),
      content: r.content,
      topic: r.topic,
      scheduled_delivery_timestamp: r.scheduled_delivery_timestamp,
      recipient,
    };
    return answer(this.outbox.enqueue(scheduledMessageEdit, args, null));
  }

  sendScheduledMessageNow(r: Req<'sendScheduledMessageNow'>): Enqueued {
    const m = localScheduled(this.db).find((x) => x.scheduled_message_id === r.scheduled_message_id);
    if (!m) throw new OutboxIntentError('no such scheduled message');
    const ids = Array.isArray(m.to) ? m.to : [m.to];
    const to =
      m.type === 'stream'
        ? { type: 'channel' as const, stream_id: ids[0] ?? 0, topic: m.topic ?? '' }
        : { type: 'direct' as const, user_ids: this.dmRecipients(ids) };
    const args = { scheduled_message_id: this.tempRef(r.scheduled_message_id), to, content: m.content };
    return answer(this.outbox.enqueue(scheduledMessageSendNow, args, { enqueued_at: seconds(this.outbox.now()), scheduled_at: m.scheduled_delivery_timestamp }));
  }

  /** As Zulip names a direct-message conversation: without the sender, unless it is a note to self. */
  private dmRecipients(userIds: readonly number[]): number[] {
    const self = getAccount(this.db)?.user_id ?? undefined;
    const others = [...new Set(userIds)].filter((u) => u !== self);
    return others.length > 0 ? others : [...new Set(userIds)];
  }

  /** A message not sent yet is edited in its send row (queued, waiting to retry, or failed). */
  private editUnsent(localId: string, content: string): Enqueued {
    const row = this.outbox.store.get(Number(localId));
    if (!row || row.kind !== MESSAGE_SEND_KIND || (row.state !== 'queued' && row.state !== 'retry_wait' && row.state !== 'failed')) {
      throw new OutboxIntentError('the message is being sent: edit it once it has arrived');
    }
    const args = messageSendArgs.parse(row.args);
    this.outbox.edit(row.id, { ...args, content });
    return { outbox_id: row.id, outcome: 'merged' };
  }

  private notUnsent(messageId: number): void {
    if (messageId > LOCAL_ECHO_MIN_ID) throw new OutboxIntentError('the message is being sent: move it once it has arrived');
  }

  /** A negative local id is an object created offline as `tmp-N` (or the server id it got since). */
  private tempRef(id: number): number | string {
    if (id >= 0) return id;
    const tmp = `tmp-${-id}`;
    const landed = this.outbox.store.resolvedTempId(tmp);
    return landed === undefined ? tmp : Number(landed);
  }

  /** Time limits do not bind moderators and above (spec, Limits). */
  private boundByLimits(): boolean {
    const self = getAccount(this.db)?.user_id ?? undefined;
    const role = self === undefined ? undefined : getUser(this.db, self)?.user.role;
    // An unknown future role (a string) is treated as bound: expiring early beats failing late.
    return typeof role !== 'number' || role > 300;
  }

  private deadline(messageId: number, limit: number | null): number | null {
    const m = getStoredMessage(this.db, messageId);
    return limit !== null && limit > 0 && m && this.boundByLimits() ? (m.timestamp + limit) * 1000 : null;
  }

  private editDeadline(messageId: number): number | null {
    return this.deadline(messageId, getRealmEditingSettings(this.db).contentEditLimitSeconds);
  }

  /**
   * Only a single-message move expires with its message's age: a topic-wide move past the limit
   * gets the partial move offered instead (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED's details).
   */
  private moveDeadline(messageId: number, betweenChannels: boolean, mode: string): number | null {
    if (mode !== 'change_one') return null;
    const s = getRealmEditingSettings(this.db);
    return this.deadline(messageId, betweenChannels ? s.moveBetweenChannelsLimitSeconds : s.moveWithinChannelLimitSeconds);
  }
}
