/**
 * Every queued kind this app knows, listed once. A kind is one module in `mutations/` declaring
 * its schemas, entity key, local effect, request, verify-by-reading, landing and undo
 * (`OutboxKind`); adding one touches that module, one line here, and the contract's command
 * (sync/protocol/outbox.ts, whose `OUTBOX_KINDS` names must match this list: a test checks it).
 *
 * Older versions of a kind stay listed while rows of them may be queued (docs/architecture.md rule 7).
 */
import type { StoreArea } from '../db/changes.js';
import { KindRegistry, runtimeKind, type LocalEffect, type RuntimeKind } from './kinds.js';
import { markNarrowRead } from './mutations/mark-narrow-read.js';
import { markTopicRead } from './mutations/mark-topic-read.js';
import { messageFlags } from './mutations/message-flags.js';
import { messageReaction } from './mutations/message-reaction.js';
import { messageContentEdit } from './mutations/message-content-edit.js';
import { messageMove } from './mutations/message-move.js';
import { messageSend } from './mutations/message-send.js';
import { navigationViewAdd } from './mutations/navigation-view-add.js';
import { navigationViewDelete } from './mutations/navigation-view-delete.js';
import { navigationViewEdit } from './mutations/navigation-view-edit.js';
import { savedSnippetCreate } from './mutations/saved-snippet-create.js';
import { savedSnippetDelete } from './mutations/saved-snippet-delete.js';
import { savedSnippetEdit } from './mutations/saved-snippet-edit.js';
import { scheduledMessageCreate } from './mutations/scheduled-message-create.js';
import { scheduledMessageDelete } from './mutations/scheduled-message-delete.js';
import { scheduledMessageEdit } from './mutations/scheduled-message-edit.js';
import { scheduledMessageSendNow } from './mutations/scheduled-message-send-now.js';
import { subscriptionRemove } from './mutations/subscription-remove.js';
import { subscriptionSet } from './mutations/subscription-set.js';
import { userGroupMembers } from './mutations/user-group-members.js';
import { userGroupPermissions } from './mutations/user-group-permissions.js';
import { userGroupReactivate } from './mutations/user-group-reactivate.js';
import { userGroupSubgroups } from './mutations/user-group-subgroups.js';
import { userGroupUpdate } from './mutations/user-group-update.js';
import { userSettingsUpdate } from './mutations/user-settings-update.js';
import { userTopicSet } from './mutations/user-topic-set.js';

export const ALL_KINDS: readonly RuntimeKind[] = [
  runtimeKind(messageSend),
  runtimeKind(messageContentEdit),
  runtimeKind(messageMove),
  runtimeKind(messageFlags),
  runtimeKind(messageReaction),
  runtimeKind(savedSnippetCreate),
  runtimeKind(savedSnippetEdit),
  runtimeKind(savedSnippetDelete),
  runtimeKind(userTopicSet),
  runtimeKind(userSettingsUpdate),
  runtimeKind(navigationViewAdd),
  runtimeKind(navigationViewEdit),
  runtimeKind(navigationViewDelete),
  runtimeKind(markTopicRead),
  runtimeKind(markNarrowRead),
  runtimeKind(subscriptionSet),
  runtimeKind(subscriptionRemove),
  runtimeKind(userGroupUpdate),
  runtimeKind(userGroupMembers),
  runtimeKind(userGroupPermissions),
  runtimeKind(scheduledMessageCreate),
  runtimeKind(scheduledMessageEdit),
  runtimeKind(scheduledMessageDelete),
  runtimeKind(userGroupSubgroups),
  runtimeKind(userGroupReactivate),
  runtimeKind(scheduledMessageSendNow),
];

/** The registry of every kind, for stores (the session's and the tests'). */
export const allKinds = (): KindRegistry => new KindRegistry(ALL_KINDS);

/** The newest version of each kind: what new intents are written as. */
export const CURRENT_KINDS: ReadonlyMap<string, RuntimeKind> = (() => {
  const m = new Map<string, RuntimeKind>();
  for (const k of ALL_KINDS) if ((m.get(k.kind)?.version ?? 0) < k.version) m.set(k.kind, k);
  return m;
})();

/** The kinds' names, once each. */
export const KIND_NAMES: readonly string[] = [...CURRENT_KINDS.keys()];

/** A kind's local effect (undefined: unknown kind, or one that changes nothing locally). */
export function localEffectOf(kind: string): LocalEffect | undefined {
  return CURRENT_KINDS.get(kind)?.local;
}

/** Kinds whose rows name many messages under one entity key (see `LocalSpec.overManyMessages`). */
export const KINDS_OVER_MANY_MESSAGES: readonly string[] = [...CURRENT_KINDS.values()].filter((k) => k.local?.overManyMessages).map((k) => k.kind);

/** Kinds whose rows a change of `area` may have overwritten. */
export function kindsForAreas(areas: Iterable<StoreArea>): string[] {
  const wanted = new Set(areas);
  return [...CURRENT_KINDS.values()].filter((k) => k.local?.areas.some((a) => wanted.has(a))).map((k) => k.kind);
}
