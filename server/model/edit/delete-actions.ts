/**
 * DELETE /messages/{id} (Zulip's validate_can_delete_message) and POST /streams/{id}/delete_topic
 * (administrators; batches newest first within a real-time budget, answering `complete: false`
 * when the budget ran out so the client repeats).
 */
import { performance } from 'node:perf_hooks';
import { badRequest, JsonableError } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import { topicKey } from '../../../common/topic-key.js';
import { canAccessChannel, getChannel, type ChannelRow } from '../access.js';
import { hasChannelPermission } from '../channels.js';
import { userHasPermission, type GroupSettingValue } from '../groups.js';
import { getRealm } from '../realm.js';
import { getUser, isAdmin, type UserRow } from '../users.js';
import { deleteMessages } from './delete.js';
import { loadEditableMessage, type StoredMessage } from './load.js';
import { isPastLimit } from './permissions.js';
import { normalizeTopicParam } from './topics.js';

/** The realm's deletion settings (model/realm.ts holds Zulip's defaults). */
function deletionSettings(srv: ServerState): { any: GroupSettingValue; own: GroupSettingValue; limit: number | null } {
  const realm = getRealm(srv);
  return { any: realm.can_delete_any_message_group, own: realm.can_delete_own_message_group, limit: realm.message_content_delete_limit_seconds };
}

const noPermission = () => badRequest("You don't have permission to delete this message");

export function checkCanDeleteMessage(srv: ServerState, actor: UserRow, m: StoredMessage): void {
  const settings = deletionSettings(srv);
  if (isAdmin(actor) || userHasPermission(srv, actor.id, settings.any)) return;
  const ch = m.type === 'stream' && m.channel_id !== null ? getChannel(srv, m.channel_id) : undefined;
  if (ch && hasChannelPermission(srv, actor.id, ch, 'can_delete_any_message_group')) return;
  const sender = getUser(srv, m.sender_id);
  if (m.sender_id !== actor.id && sender?.bot_owner_id !== actor.id) throw noPermission();
  const canDeleteOwn = userHasPermission(srv, actor.id, settings.own) || (!!ch && hasChannelPermission(srv, actor.id, ch, 'can_delete_own_message_group'));
  if (!canDeleteOwn) throw noPermission();
  if (isPastLimit(srv, m, settings.limit, 0)) throw badRequest('The time limit for deleting this message has passed');
}

/** DELETE /messages/{id}. */
export function deleteMessageById(srv: ServerState, actor: UserRow, messageId: number): void {
  const m = loadEditableMessage(srv, actor, messageId);
  checkCanDeleteMessage(srv, actor, m);
  deleteMessages(srv, [m]);
}

function topicChannel(srv: ServerState, actor: UserRow, channelId: number): ChannelRow {
  const ch = getChannel(srv, channelId);
  if (!ch || !canAccessChannel(srv, actor, ch)) throw badRequest('Invalid channel ID');
  return ch;
}

export interface DeleteTopicOptions {
  /** Real elapsed milliseconds since the request started (injectable for tests). */
  readonly elapsedMs?: () => number;
}

/**
 * POST /streams/{id}/delete_topic: newest first, `deleteTopicBatchSize` at a time; after each
 * batch, stops if `deleteTopicBudgetMs` of real time is used and messages remain. In a channel
 * with protected history only the messages the administrator received are deleted.
 */
export function deleteTopic(srv: ServerState, actor: UserRow, channelId: number, rawTopic: string, opts: DeleteTopicOptions = {}): { complete: boolean } {
  if (!isAdmin(actor)) throw new JsonableError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 400);
  const ch = topicChannel(srv, actor, channelId);
  const key = topicKey(normalizeTopicParam(srv, rawTopic));
  const start = performance.now();
  const elapsed = opts.elapsedMs ?? (() => performance.now() - start);
  const protectedHistory = ch.history_public_to_subscribers === 0;
  const batchSql = protectedHistory
    ? `SELECT m.id, m.type, m.channel_id, m.topic FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
       WHERE m.channel_id = ? AND m.topic_key = ? ORDER BY m.id DESC LIMIT ?`
    : 'SELECT id, type, channel_id, topic FROM messages WHERE channel_id = ? AND topic_key = ? ORDER BY id DESC LIMIT ?';
  const batchSize = Math.max(1, srv.config.deleteTopicBatchSize);
  const nextBatch = () =>
    (protectedHistory
      ? srv.db.prepare(batchSql).all(actor.id, ch.id, key, batchSize)
      : srv.db.prepare(batchSql).all(ch.id, key, batchSize)) as Array<Pick<StoredMessage, 'id' | 'type' | 'channel_id' | 'topic'>>;
  for (let batch = nextBatch(); batch.length > 0; batch = nextBatch()) {
    deleteMessages(srv, batch);
    if (elapsed() >= srv.config.deleteTopicBudgetMs) return { complete: nextBatch().length === 0 };
  }
  return { complete: true };
}
