/**
 * Every queued kind this app knows, listed once: `KIND_MODULES` is the one list. A kind is one
 * module in `mutations/` declaring everything about it (`OutboxKind`: name, argument schema, entity
 * key, local effect, request, verify-by-reading, landing, undo, `describe`, the fields that may
 * hold a `tmp-N` id) and the contract commands that queue it (`QueuedCommand`: request and
 * response schemas, `intent`). Everything else is derived from this list: the registry the store
 * reads rows with, the kind names (`KindName`), the command table the service serves and the
 * renderer types its calls from (`QueuedCommands`), the typed rows (`OutboxRowOf`) and their
 * descriptions. Adding a kind touches two files: its module and one line here.
 *
 * Older versions of a kind stay listed while rows of them may be queued (docs/architecture.md rule 7).
 *
 * The contract command and the kind carry the API operation's name (Zulip's OpenAPI operationId);
 * where one operation serves two intents the name starts from the operation's and says which
 * (`updateMessageContent` and `updateMessageMove`; `addOrRemoveReaction`, one kind for both
 * operations, so that a toggle back while queued annuls the first; `updateUserGroupPermissions`
 * and `updateUserGroupReactivate`, rows of `updateUserGroup`). `resolveTopic` is no operation of
 * its own: a move of the whole topic. The API function is sync/api's, the event type the server's.
 *
 *   user intent                   | command                     | kind                            | API function                        | event type
 *   send a message                | sendMessage                 | send_message                    | sendMessage                         | message
 *   edit a message's text         | updateMessageContent        | update_message_content          | updateMessage                       | update_message
 *   move messages (topic/channel) | updateMessageMove           | update_message_move             | updateMessage                       | update_message
 *   resolve / unresolve a topic   | resolveTopic (a move)       | update_message_move             | updateMessage                       | update_message
 *   star, mark read / unread      | updateMessageFlags          | update_message_flags            | updateMessageFlags                  | update_message_flags
 *   mark a narrow read            | updateMessageFlagsForNarrow | update_message_flags_for_narrow | updateMessageFlagsForNarrow         | update_message_flags
 *   mark a topic read             | markTopicAsRead             | mark_topic_as_read              | markTopicAsRead                     | update_message_flags
 *   react / remove a reaction     | addOrRemoveReaction         | add_or_remove_reaction          | addReaction, removeReaction         | reaction
 *   vote, add an option or task   | sendSubmessage              | send_submessage                 | sendSubmessage                      | submessage
 *   mute / follow a topic         | updateUserTopic             | update_user_topic               | updateUserTopic                     | user_topic
 *   save a snippet                | createSavedSnippet          | create_saved_snippet            | createSavedSnippet                  | saved_snippets
 *   edit a snippet                | editSavedSnippet            | edit_saved_snippet              | editSavedSnippet                    | saved_snippets
 *   delete a snippet              | deleteSavedSnippet          | delete_saved_snippet            | deleteSavedSnippet                  | saved_snippets
 *   schedule a message            | createScheduledMessage      | create_scheduled_message        | createScheduledMessage              | scheduled_messages
 *   change a scheduled message    | updateScheduledMessage      | update_scheduled_message        | updateScheduledMessage              | scheduled_messages
 *   cancel a scheduled message    | deleteScheduledMessage      | delete_scheduled_message        | deleteScheduledMessage              | scheduled_messages
 *   send a scheduled one now      | sendScheduledMessageNow     | send_scheduled_message_now      | deleteScheduledMessage, sendMessage | scheduled_messages, message
 *   subscribe                     | subscribe                   | subscribe                       | subscribe                           | subscription
 *   unsubscribe                   | unsubscribe                 | unsubscribe                     | unsubscribe                         | subscription
 *   mute / pin / colour a channel | updateSubscriptionSettings  | update_subscription_settings    | updateSubscriptionSettings          | subscription
 *   change settings               | updateSettings              | update_settings                 | updateSettings                      | user_settings
 *   add / pin a view              | addNavigationView           | add_navigation_view             | addNavigationView                   | navigation_view
 *   change a view                 | editNavigationView          | edit_navigation_view            | editNavigationView                  | navigation_view
 *   remove a view                 | removeNavigationView        | remove_navigation_view          | deleteNavigationView                | navigation_view
 *   rename / describe a group     | updateUserGroup             | update_user_group               | updateUserGroup                     | user_group
 *   change a group's permissions  | updateUserGroup             | update_user_group_permissions   | updateUserGroup                     | user_group
 *   reactivate a group            | updateUserGroupReactivate   | update_user_group_reactivate    | updateUserGroup                     | user_group
 *   change a group's members      | updateUserGroupMembers      | update_user_group_members       | updateUserGroupMembers              | user_group
 *   change a group's subgroups    | updateUserGroupSubgroups    | update_user_group_subgroups     | updateUserGroupMembers              | user_group
 */
import type * as z from 'zod';
import type { StoreArea } from '../db/changes.js';
import type { OutboxDescription, OutboxRowView, outboxQueries } from '../protocol/outbox.js';
import type { QueuedCommand } from './commands.js';
import { KindRegistry, runtimeKind, type LocalEffect, type Names, type OutboxKind, type RuntimeKind } from './kinds.js';
import { markNarrowRead, markNarrowReadCommands } from './mutations/mark-narrow-read.js';
import { markTopicRead, markTopicReadCommands } from './mutations/mark-topic-read.js';
import { messageContentEdit, messageContentEditCommands } from './mutations/message-content-edit.js';
import { messageFlags, messageFlagsCommands } from './mutations/message-flags.js';
import { messageMove, messageMoveCommands } from './mutations/message-move.js';
import { messageReaction, messageReactionCommands } from './mutations/message-reaction.js';
import { messageDelete, messageDeleteCommands } from './mutations/message-delete.js';
import { messageSend, messageSendCommands } from './mutations/message-send.js';
import { navigationViewAdd, navigationViewAddCommands } from './mutations/navigation-view-add.js';
import { navigationViewDelete, navigationViewDeleteCommands } from './mutations/navigation-view-delete.js';
import { navigationViewEdit, navigationViewEditCommands } from './mutations/navigation-view-edit.js';
import { savedSnippetCreate, savedSnippetCreateCommands } from './mutations/saved-snippet-create.js';
import { savedSnippetDelete, savedSnippetDeleteCommands } from './mutations/saved-snippet-delete.js';
import { savedSnippetEdit, savedSnippetEditCommands } from './mutations/saved-snippet-edit.js';
import { scheduledMessageCreate, scheduledMessageCreateCommands } from './mutations/scheduled-message-create.js';
import { scheduledMessageDelete, scheduledMessageDeleteCommands } from './mutations/scheduled-message-delete.js';
import { scheduledMessageEdit, scheduledMessageEditCommands } from './mutations/scheduled-message-edit.js';
import { scheduledMessageSendNow, scheduledMessageSendNowCommands } from './mutations/scheduled-message-send-now.js';
import { submessageSend, submessageSendCommands } from './mutations/submessage-send.js';
import { subscriptionProperty, subscriptionPropertyCommands } from './mutations/subscription-property.js';
import { userMute, userMuteCommands } from './mutations/user-mute.js';
import { subscriptionRemove, subscriptionRemoveCommands } from './mutations/subscription-remove.js';
import { subscriptionSet, subscriptionSetCommands } from './mutations/subscription-set.js';
import { userGroupMembers, userGroupMembersCommands } from './mutations/user-group-members.js';
import { userGroupPermissions, userGroupPermissionsCommands } from './mutations/user-group-permissions.js';
import { userGroupReactivate, userGroupReactivateCommands } from './mutations/user-group-reactivate.js';
import { userGroupSubgroups, userGroupSubgroupsCommands } from './mutations/user-group-subgroups.js';
import { userGroupUpdate, userGroupUpdateCommands } from './mutations/user-group-update.js';
import { userSettingsUpdate, userSettingsUpdateCommands } from './mutations/user-settings-update.js';
import { userTopicSet, userTopicSetCommands } from './mutations/user-topic-set.js';
import { uploadFileCommands, uploadFileKind } from './mutations/upload-file.js';

/** The one list: each kind with the contract commands that queue it. */
export const KIND_MODULES = [
  { kind: messageSend, commands: messageSendCommands },
  { kind: messageContentEdit, commands: messageContentEditCommands },
  { kind: messageMove, commands: messageMoveCommands },
  { kind: messageFlags, commands: messageFlagsCommands },
  { kind: messageReaction, commands: messageReactionCommands },
  { kind: messageDelete, commands: messageDeleteCommands },
  { kind: savedSnippetCreate, commands: savedSnippetCreateCommands },
  { kind: savedSnippetEdit, commands: savedSnippetEditCommands },
  { kind: savedSnippetDelete, commands: savedSnippetDeleteCommands },
  { kind: userTopicSet, commands: userTopicSetCommands },
  { kind: userSettingsUpdate, commands: userSettingsUpdateCommands },
  { kind: navigationViewAdd, commands: navigationViewAddCommands },
  { kind: navigationViewEdit, commands: navigationViewEditCommands },
  { kind: navigationViewDelete, commands: navigationViewDeleteCommands },
  { kind: markTopicRead, commands: markTopicReadCommands },
  { kind: markNarrowRead, commands: markNarrowReadCommands },
  { kind: subscriptionSet, commands: subscriptionSetCommands },
  { kind: subscriptionRemove, commands: subscriptionRemoveCommands },
  { kind: userGroupUpdate, commands: userGroupUpdateCommands },
  { kind: userGroupMembers, commands: userGroupMembersCommands },
  { kind: userGroupPermissions, commands: userGroupPermissionsCommands },
  { kind: scheduledMessageCreate, commands: scheduledMessageCreateCommands },
  { kind: scheduledMessageEdit, commands: scheduledMessageEditCommands },
  { kind: scheduledMessageDelete, commands: scheduledMessageDeleteCommands },
  { kind: userGroupSubgroups, commands: userGroupSubgroupsCommands },
  { kind: userGroupReactivate, commands: userGroupReactivateCommands },
  { kind: scheduledMessageSendNow, commands: scheduledMessageSendNowCommands },
  { kind: subscriptionProperty, commands: subscriptionPropertyCommands },
  { kind: userMute, commands: userMuteCommands },
  { kind: submessageSend, commands: submessageSendCommands },
  { kind: uploadFileKind, commands: uploadFileCommands },
] as const satisfies readonly KindModule[];

/** A kind module's two exports, as the list holds them. */
export interface KindModule {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of kinds of every argument type
  readonly kind: OutboxKind<any, any>;
  readonly commands: Readonly<Record<string, QueuedCommand>>;
}

type Modules = (typeof KIND_MODULES)[number];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The name of every kind this app knows (a row read from disk may still carry another). */
export type KindName = Modules['kind']['kind'];
/** A kind's arguments, by name. */
export type ArgsOf<K extends KindName> = Extract<Modules['kind'], { kind: K }> extends OutboxKind<infer A, unknown, K> ? A : never;

/** Every queued command of the contract, by name: request and response schemas, and the intent. */
export type QueuedCommands = UnionToIntersection<Modules['commands']>;
export type QueuedCommandName = keyof QueuedCommands & string;

/**
 * A row's kind and args as the contract carries them, typed by kind: a known kind's args are its
 * own shape, read with its own schema by the engine (`rowChange`). A row of a kind or version this
 * app does not know (written by a newer one), or whose args no longer parse, carries `args: null`:
 * it still shows and can be discarded, and narrowing on `kind` leaves its args `null`, never a
 * shape they do not have.
 */
export type OutboxChange = { [K in KindName]: { readonly kind: K; readonly args: ArgsOf<K> } }[KindName] | { readonly kind: string; readonly args: null };

/** An outbox row as the contract carries it (`OutboxRowView`), its args typed by its kind. */
export type OutboxRowOf = Omit<OutboxRowView, 'kind' | 'args'> & OutboxChange;

/**
 * The `outbox` query as the page types it: the contract's schema checks each row, and the engine
 * built each row's args with `rowChange` (as it checks a queued command's answer against the
 * command's own schema, which the page does not hold).
 */
export interface TypedOutboxQuery {
  readonly outbox: { readonly request: (typeof outboxQueries)['outbox']['request']; readonly response: z.ZodType<OutboxRowOf[]> };
}

/** The request type of a queued command. */
export type QueuedRequest<N extends QueuedCommandName> = z.output<QueuedCommands[N]['request']>;

/** Everything derived from a list of kind modules (for this app's list: the exports below). */
export interface DerivedTables {
  readonly ALL_KINDS: readonly RuntimeKind[];
  /** The newest version of each kind: what new intents are written as. */
  readonly CURRENT_KINDS: ReadonlyMap<string, RuntimeKind>;
  /** The kinds' names, once each. */
  readonly KIND_NAMES: readonly string[];
  /** The command table (a name declared twice is a mistake, caught at load). */
  readonly QUEUED_COMMANDS: Readonly<Record<string, QueuedCommand>>;
  /** The registry of every kind, for stores (the session's and the tests'). */
  allKinds(): KindRegistry;
  /** A kind's local effect (undefined: unknown kind, or one that changes nothing locally). */
  localEffectOf(kind: string): LocalEffect | undefined;
  /** Kinds whose rows name many messages under one entity key (see `LocalSpec.overManyMessages`). */
  readonly KINDS_OVER_MANY_MESSAGES: readonly string[];
  /** Kinds whose rows a change of `area` may have overwritten. */
  kindsForAreas(areas: Iterable<StoreArea>): string[];
  /** A row in words: its kind's `describe`, or what the panel says for a kind or args it cannot read. */
  describeRow(kind: string, args: unknown, names: Names): OutboxDescription;
  /** A row's kind and args for the contract: the args as the kind's version reads them, or null when it cannot. */
  rowChange(kind: string, version: number, args: unknown): OutboxChange;
}

export function deriveTables(modules: readonly KindModule[]): DerivedTables {
  const all = modules.map((m) => runtimeKind(m.kind));
  const current = new Map<string, RuntimeKind>();
  for (const k of all) if ((current.get(k.kind)?.version ?? 0) < k.version) current.set(k.kind, k);
  const argsSchemas = new Map(modules.map((m) => [`${m.kind.kind}@${m.kind.version}`, m.kind.argsSchema]));
  const commands: Record<string, QueuedCommand> = {};
  for (const m of modules) {
    for (const [name, c] of Object.entries(m.commands)) {
      if (name in commands) throw new Error(`queued command ${name} declared twice`);
      commands[name] = c;
    }
  }
  return {
    ALL_KINDS: all,
    CURRENT_KINDS: current,
    KIND_NAMES: [...current.keys()],
    QUEUED_COMMANDS: commands,
    allKinds: () => new KindRegistry(all),
    localEffectOf: (kind) => current.get(kind)?.local,
    KINDS_OVER_MANY_MESSAGES: [...current.values()].filter((k) => k.local?.overManyMessages).map((k) => k.kind),
    kindsForAreas(areas) {
      const wanted = new Set(areas);
      return [...current.values()].filter((k) => k.local?.areas.some((a) => wanted.has(a))).map((k) => k.kind);
    },
    describeRow: (kind, args, names) => current.get(kind)?.describe(args, names) ?? { text: `A change this app does not know (${kind})`, link: null },
    rowChange(kind, version, args) {
      const read = argsSchemas.get(`${kind}@${version}`)?.safeParse(args);
      // Parsed with the schema of the kind named `kind`: its args, which TypeScript cannot follow
      // through a lookup by name.
      return read?.success ? ({ kind, args: read.data } as OutboxChange) : { kind, args: null };
    },
  };
}

const tables = deriveTables(KIND_MODULES);

export const { ALL_KINDS, CURRENT_KINDS, allKinds, localEffectOf, KINDS_OVER_MANY_MESSAGES, kindsForAreas, describeRow, rowChange } = tables;
export const KIND_NAMES: readonly KindName[] = KIND_MODULES.map((m) => m.kind.kind);
// The table holds exactly the commands the list declares, under the names it declares them: what
// `QueuedCommands` says, which TypeScript cannot follow through a loop over the list.
export const QUEUED_COMMANDS = tables.QUEUED_COMMANDS as QueuedCommands;
