/**
 * 0007: queued rows take their kinds' new names, the API operations' (Zulip's OpenAPI operationId:
 * `update-user-topic` is `update_user_topic`; see the table in sync/outbox/registry.ts). A kind's
 * name is persisted in every row, so rows written under the old names are renamed here, and read
 * and sent under the new ones. Only `outbox.kind` holds kind names; a row's `history` keeps the
 * names as they were when it was written (it is a record), and a kind this table does not name
 * (written by a newer app) is left as it is.
 *
 * The names below are literal on purpose: a migration never changes once landed.
 */
import type { Migration } from './types.js';

export const KIND_RENAMES_0007: Readonly<Record<string, string>> = {
  message_send: 'send_message',
  message_content_edit: 'update_message_content',
  message_move: 'update_message_move',
  message_flags: 'update_message_flags',
  mark_narrow_read: 'update_message_flags_for_narrow',
  mark_topic_read: 'mark_topic_as_read',
  message_reaction: 'add_or_remove_reaction',
  user_topic_set: 'update_user_topic',
  saved_snippet_create: 'create_saved_snippet',
  saved_snippet_edit: 'edit_saved_snippet',
  saved_snippet_delete: 'delete_saved_snippet',
  scheduled_message_create: 'create_scheduled_message',
  scheduled_message_edit: 'update_scheduled_message',
  scheduled_message_delete: 'delete_scheduled_message',
  scheduled_message_send_now: 'send_scheduled_message_now',
  subscription_set: 'subscribe',
  subscription_remove: 'unsubscribe',
  user_settings_update: 'update_settings',
  navigation_view_add: 'add_navigation_view',
  navigation_view_edit: 'edit_navigation_view',
  navigation_view_delete: 'remove_navigation_view',
  user_group_update: 'update_user_group',
  user_group_permissions: 'update_user_group_permissions',
  user_group_reactivate: 'update_user_group_reactivate',
  user_group_members: 'update_user_group_members',
  user_group_subgroups: 'update_user_group_subgroups',
};

export const migration: Migration = {
  version: 7,
  name: 'outbox-kind-names',
  up(db) {
    const rename = db.prepare('UPDATE outbox SET kind = ? WHERE kind = ?');
    for (const [from, to] of Object.entries(KIND_RENAMES_0007)) rename.run(to, from);
  },
};
