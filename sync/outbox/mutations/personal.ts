/**
 * The personal (per-user state) mutation kinds, for the session's `KindRegistry`. Message kinds
 * live in their own modules; this list is only the ones that change the user's own preferences
 * and personal objects.
 */
import { runtimeKind, type RuntimeKind } from '../kinds.js';
import { markTopicRead } from './mark-topic-read.js';
import { navigationViewAdd } from './navigation-view-add.js';
import { navigationViewDelete } from './navigation-view-delete.js';
import { navigationViewEdit } from './navigation-view-edit.js';
import { savedSnippetCreate } from './saved-snippet-create.js';
import { savedSnippetDelete } from './saved-snippet-delete.js';
import { savedSnippetEdit } from './saved-snippet-edit.js';
import { scheduledMessageEdit } from './scheduled-message-edit.js';
import { subscriptionRemove } from './subscription-remove.js';
import { subscriptionSet } from './subscription-set.js';
import { userGroupMembers } from './user-group-members.js';
import { userGroupPermissions } from './user-group-permissions.js';
import { userGroupUpdate } from './user-group-update.js';
import { userSettingsUpdate } from './user-settings-update.js';
import { userTopicSet } from './user-topic-set.js';

export const personalKinds: readonly RuntimeKind[] = [
  runtimeKind(savedSnippetCreate),
  runtimeKind(savedSnippetEdit),
  runtimeKind(savedSnippetDelete),
  runtimeKind(userTopicSet),
  runtimeKind(userSettingsUpdate),
  runtimeKind(navigationViewAdd),
  runtimeKind(navigationViewEdit),
  runtimeKind(navigationViewDelete),
  runtimeKind(markTopicRead),
  runtimeKind(subscriptionSet),
  runtimeKind(userGroupUpdate),
  runtimeKind(userGroupMembers),
  runtimeKind(scheduledMessageEdit),
  runtimeKind(subscriptionRemove),
  runtimeKind(userGroupPermissions),
];
