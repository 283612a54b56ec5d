/**
 * What each mutation kind does to the local cache, for the session: its optimistic effect (run in
 * the enqueue transaction, and again whenever server changes may have overwritten it), which
 * messages show its row's marker, which store areas re-apply it, and how to read the server's
 * state back when the row is dropped (discarded) and its effect must be undone.
 *
 * Undo is a re-read, not an inverse: the cache holds no copy of the server's version, and the
 * server's current state is the only truth to go back to (pending rows are then applied again).
 */
import { z } from 'zod';
import type { LocalDb } from '../db/open.js';
import type { ChangeCollector, StoreArea } from '../engine/changes.js';
import * as markRead from './mutations/mark-topic-read.js';
import * as contentEdit from './mutations/message-content-edit.js';
import * as move from './mutations/message-move.js';
import * as send from './mutations/message-send.js';
import * as viewAdd from './mutations/navigation-view-add.js';
import * as viewDelete from './mutations/navigation-view-delete.js';
import * as viewEdit from './mutations/navigation-view-edit.js';
import * as snippetCreate from './mutations/saved-snippet-create.js';
import * as snippetDelete from './mutations/saved-snippet-delete.js';
import * as snippetEdit from './mutations/saved-snippet-edit.js';
import * as scheduledEdit from './mutations/scheduled-message-edit.js';
import * as subscriptionRemove from './mutations/subscription-remove.js';
import * as subscriptionSet from './mutations/subscription-set.js';
import * as groupMembers from './mutations/user-group-members.js';
import * as groupPermissions from './mutations/user-group-permissions.js';
import * as groupUpdate from './mutations/user-group-update.js';
import * as settings from './mutations/user-settings-update.js';
import * as userTopic from './mutations/user-topic-set.js';

export interface LocalEffect {
  readonly kind: string;
  /** Apply (again): idempotent. Rows whose args no longer parse are skipped (the pusher fails them). */
  apply(db: LocalDb, args: unknown, base: unknown, changes: ChangeCollector): void;
  /** The cached messages carrying this row's marker, and whose server changes re-apply it. */
  messageIds(args: unknown): number[];
  /** Store areas whose server changes may have overwritten the effect. */
  readonly areas: readonly StoreArea[];
  /** Register `fetch_event_types` that read the server's state back (empty: message kinds). */
  readonly refetch: readonly string[];
}

interface Spec<A, B> {
  readonly args: z.ZodType<A>;
  readonly base: z.ZodType<B>;
  apply(db: LocalDb, a: A, b: B, changes: ChangeCollector): void;
  messageIds?(a: A): number[];
  readonly areas?: readonly StoreArea[];
  readonly refetch?: readonly string[];
}

function effect<A, B>(kind: string, s: Spec<A, B>): LocalEffect {
  return {
    kind,
    apply(db, args, base, changes) {
      const a = s.args.safeParse(args);
      const b = s.base.safeParse(base);
      if (a.success && b.success) s.apply(db, a.data, b.data, changes);
    },
    messageIds(args) {
      const a = s.args.safeParse(args);
      return a.success && s.messageIds ? s.messageIds(a.data) : [];
    },
    areas: s.areas ?? [],
    refetch: s.refetch ?? [],
  };
}

const nullBase = () => z.null();

const SNIPPETS = { areas: ['saved_snippets'], refetch: ['saved_snippets'] } as const;
const VIEWS = { areas: ['navigation_views'], refetch: ['navigation_views'] } as const;
const GROUPS = { areas: ['user_groups'], refetch: ['realm_user_groups'] } as const;
const SUBS = { areas: ['subscriptions', 'channels'], refetch: ['subscription'] } as const;

const EFFECTS: readonly LocalEffect[] = [
  effect('message_content_edit', {
    args: contentEdit.contentEditArgs,
    base: contentEdit.contentEditBase,
    apply: (db, a, _b, c) => void contentEdit.applyOptimistic(db, a, c),
    messageIds: (a) => [a.message_id],
  }),
  effect('message_move', { args: move.moveArgs, base: nullBase(), apply: (db, a, _b, c) => void move.applyOptimistic(db, a, c), messageIds: (a) => [a.message_id] }),
  effect('message_send', {
    args: send.messageSendArgs,
    base: send.messageSendBase,
    apply: (db, a, b, c) => send.applyOptimistic(db, a, b, c),
    messageIds: (a) => [send.echoIdOf(a.local_id)],
  }),
  effect('saved_snippet_create', { args: snippetCreate.snippetCreateArgs, base: snippetCreate.snippetCreateBase, apply: (db, a, b, c) => snippetCreate.applyOptimistic(db, a, c, b), ...SNIPPETS }),
  effect('saved_snippet_edit', { args: snippetEdit.snippetEditArgs, base: nullBase(), apply: (db, a, _b, c) => snippetEdit.applyOptimistic(db, a, c), ...SNIPPETS }),
  effect('saved_snippet_delete', { args: snippetDelete.snippetDeleteArgs, base: nullBase(), apply: (db, a, _b, c) => snippetDelete.applyOptimistic(db, a, c), ...SNIPPETS }),
  effect('user_topic_set', { args: userTopic.userTopicSetArgs, base: nullBase(), apply: (db, a, _b, c) => userTopic.applyOptimistic(db, a, c), areas: ['user_topics'], refetch: ['user_topic'] }),
  effect('user_settings_update', { args: settings.userSettingsArgs, base: nullBase(), apply: (db, a, _b, c) => settings.applyOptimistic(db, a, c), areas: ['user_settings'], refetch: ['user_settings'] }),
  effect('navigation_view_add', { args: viewAdd.navigationViewAddArgs, base: nullBase(), apply: (db, a, _b, c) => viewAdd.applyOptimistic(db, a, c), ...VIEWS }),
  effect('navigation_view_edit', { args: viewEdit.navigationViewEditArgs, base: nullBase(), apply: (db, a, _b, c) => viewEdit.applyOptimistic(db, a, c), ...VIEWS }),
  effect('navigation_view_delete', { args: viewDelete.navigationViewDeleteArgs, base: nullBase(), apply: (db, a, _b, c) => viewDelete.applyOptimistic(db, a, c), ...VIEWS }),
  // New unread messages of the topic arriving meanwhile: the server will mark them read too.
  effect('mark_topic_read', { args: markRead.markTopicReadArgs, base: nullBase(), apply: (db, a, _b, c) => markRead.applyOptimistic(db, a, c), areas: ['unread'], refetch: ['message', 'update_message_flags'] }),
  effect('subscription_set', { args: subscriptionSet.subscriptionSetArgs, base: nullBase(), apply: (db, a, _b, c) => subscriptionSet.applyOptimistic(db, a, c), ...SUBS }),
  effect('subscription_remove', { args: subscriptionRemove.subscriptionRemoveArgs, base: nullBase(), apply: (db, a, _b, c) => subscriptionRemove.applyOptimistic(db, a, c), ...SUBS }),
  effect('user_group_update', { args: groupUpdate.userGroupUpdateArgs, base: nullBase(), apply: (db, a, _b, c) => groupUpdate.applyOptimistic(db, a, c), ...GROUPS }),
  effect('user_group_members', { args: groupMembers.userGroupMembersArgs, base: nullBase(), apply: (db, a, _b, c) => groupMembers.applyOptimistic(db, a, c), ...GROUPS }),
  effect('user_group_permissions', { args: groupPermissions.userGroupPermissionsArgs, base: nullBase(), apply: (db, a, _b, c) => groupPermissions.applyOptimistic(db, a, c), ...GROUPS }),
  effect('scheduled_message_edit', { args: scheduledEdit.scheduledEditArgs, base: nullBase(), apply: (db, a, _b, c) => scheduledEdit.applyOptimistic(db, a, c), areas: ['scheduled_messages'], refetch: ['scheduled_messages'] }),
];

const BY_KIND = new Map(EFFECTS.map((e) => [e.kind, e]));

export function localEffectOf(kind: string): LocalEffect | undefined {
  return BY_KIND.get(kind);
}

/** Kinds whose rows a change of `area` may have overwritten. */
export function kindsForAreas(areas: Iterable<StoreArea>): string[] {
  const wanted = new Set(areas);
  return EFFECTS.filter((e) => e.areas.some((a) => wanted.has(a))).map((e) => e.kind);
}
