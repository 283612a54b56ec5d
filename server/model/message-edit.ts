/**
 * Editing, moving and deleting messages: the entry points of the edits area. The rules live in
 * server/model/edit/: permissions.ts (who may), topics.ts (topic rules), request.ts (validation),
 * propagation.ts (which messages move, topic-wide time limits), apply.ts (the writes and the
 * `update_message` event), move-notices.ts (Notification Bot notices), history.ts (edit history),
 * delete.ts / delete-actions.ts (deletion and delete_topic).
 */
import type { ServerState } from '../state.js';
import type { UserRow } from './users.js';
import { applyEdit, type EditResult } from './edit/apply.js';
import { messageHistory, type HistorySnapshot } from './edit/history.js';
import { loadEditableMessage, loadReadableMessage } from './edit/load.js';
import { checkTopicWideTimeLimit } from './edit/propagation.js';
import { buildEditRequest, type EditArgs } from './edit/request.js';

export type { EditArgs } from './edit/request.js';
export type { EditResult } from './edit/apply.js';
export { deleteMessageById, deleteTopic } from './edit/delete-actions.js';
export { notificationBot } from './edit/notices.js';

/** PATCH /messages/{id}: validates everything, then writes; returns the changed ids and detached uploads. */
export function editMessage(srv: ServerState, actor: UserRow, messageId: number, args: EditArgs): EditResult {
  const m = loadEditableMessage(srv, actor, messageId);
  const request = buildEditRequest(srv, actor, m, args);
  checkTopicWideTimeLimit(srv, actor, request);
  return applyEdit(srv, actor, request);
}

/** GET /messages/{id}/history. */
export function getMessageHistory(srv: ServerState, actor: UserRow, messageId: number, allowEmptyTopicName: boolean): HistorySnapshot[] {
  return messageHistory(srv, loadReadableMessage(srv, actor, messageId), allowEmptyTopicName);
}
