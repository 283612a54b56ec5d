/**
 * The engine's commands and queries as the UI calls them (intent level, never SQL; architecture
 * rule 10), each with its request and response schema, plus the messages the engine pushes (status,
 * live-view change sets, touched areas). Both sides parse with these schemas.
 */
import { z } from 'zod';
import { sessionStatus } from './status.js';
import { narrowChangeSetSchema, narrowRequestSchema, narrowSnapshotSchema } from './views.js';

const int = z.number().int();
const none = z.object({});
const ok = z.object({ ok: z.literal(true) });

export const topicSummarySchema = z.object({
  /** `""` is the empty topic. */
  topic: z.string(),
  max_message_id: int,
  unread_count: int.nonnegative(),
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: int,
});
export type TopicSummary = z.output<typeof topicSummarySchema>;

export const channelSummarySchema = z.object({
  channel_id: int,
  name: z.string(),
  is_subscribed: z.boolean(),
  is_muted: z.boolean(),
  color: z.string().nullable(),
  unread_count: int.nonnegative(),
  /** Newest first. */
  topics: z.array(topicSummarySchema),
});
export type ChannelSummary = z.output<typeof channelSummarySchema>;

export const userSummarySchema = z.object({
  user_id: int,
  email: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  is_bot: z.boolean(),
  avatar_url: z.string().nullable(),
});
export type UserSummary = z.output<typeof userSummarySchema>;

export const savedSnippetSchema = z.object({ id: int, title: z.string(), content: z.string(), date_created: int });
export const navigationViewSchema = z.object({ fragment: z.string(), is_pinned: z.boolean(), name: z.string().nullable() });
export const scheduledMessageSchema = z.object({
  scheduled_message_id: int,
  type: z.string(),
  to: z.union([int, z.array(int)]),
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: int,
  failed: z.boolean(),
});
export const userSettingsSchema = z.record(z.string(), z.unknown());

/** One step of a message's history: what changed, by whom, when. */
export const editStepSchema = z.object({
  user_id: int.nullable(),
  /** UNIX seconds. */
  timestamp: int,
  /** Word-level diff of the raw or rendered content, when the content changed. */
  content_diff: z.array(z.object({ op: z.enum(['same', 'added', 'removed']), text: z.string() })).nullable(),
  /** Topic before and after, when the topic changed. */
  topic: z.object({ from: z.string(), to: z.string() }).nullable(),
  /** Channel ids before and after, when the message moved channel. */
  channel: z.object({ from: int, to: int }).nullable(),
});
export const editHistorySchema = z.object({
  message_id: int,
  /** Where it came from: the cached `edit_history`, or the server's history endpoint. */
  source: z.enum(['cache', 'server']),
  /** Oldest first. */
  steps: z.array(editStepSchema),
});
export type EditHistory = z.output<typeof editHistorySchema>;

export const typingEditorSchema = z.object({ message_id: int, user_ids: z.array(int) });
export type TypingEditor = z.output<typeof typingEditorSchema>;

/** Where a draft (or a message) goes: a channel's topic (`""` while the new topic has no name), or a DM group. */
export const draftTargetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), channel_id: int.positive(), topic: z.string() }),
  z.object({ type: z.literal('direct'), user_ids: z.array(int.positive()).min(1) }),
]);
/** The composer's text of one conversation, kept by the engine across reloads, restarts and crashes. */
export const draftSchema = z.object({ key: z.string(), to: draftTargetSchema, content: z.string(), updated_at: int });
export type DraftView = z.output<typeof draftSchema>;

/** Request / response pairs. `view_id` names a live view opened by `openNarrow`. */
export const queries = {
  status: { request: none, response: sessionStatus },
  channels: { request: none, response: z.array(channelSummarySchema) },
  users: { request: none, response: z.array(userSummarySchema) },
  /**
   * The signed-in user's id (e.g. to offer editing one's own messages) and organization role (100
   * owner, 200 administrator, 300 moderator, 400 member, 600 guest: which topic actions to offer);
   * null before the first sync.
   */
  ownUser: { request: none, response: z.object({ user_id: int.nullable(), role: int.nullable() }) },
  savedSnippets: { request: none, response: z.array(savedSnippetSchema) },
  navigationViews: { request: none, response: z.array(navigationViewSchema) },
  scheduledMessages: { request: none, response: z.array(scheduledMessageSchema) },
  userSettings: { request: none, response: userSettingsSchema },
  editHistory: { request: z.object({ message_id: int }), response: editHistorySchema },
  typingEditors: { request: none, response: z.array(typingEditorSchema) },
  /** Every draft, newest first (live area `drafts`). */
  drafts: { request: none, response: z.array(draftSchema) },
} as const;

export const commands = {
  start: { request: none, response: ok },
  stop: { request: none, response: ok },
  /** The OS says the network changed or the machine woke: poll at once. */
  nudge: { request: z.object({ reason: z.enum(['resume', 'network']) }), response: ok },
  openNarrow: { request: narrowRequestSchema, response: z.object({ view_id: z.string(), snapshot: narrowSnapshotSchema }) },
  loadOlder: { request: z.object({ view_id: z.string(), count: int.min(1).max(5000) }), response: ok },
  loadNewer: { request: z.object({ view_id: z.string(), count: int.min(1).max(5000) }), response: ok },
  closeNarrow: { request: z.object({ view_id: z.string() }), response: ok },
  /** Save the composer's text of a conversation (debounced by the UI); blank text deletes the draft. */
  saveDraft: { request: z.object({ to: draftTargetSchema, content: z.string().max(1_000_000) }), response: z.object({ key: z.string() }) },
  deleteDraft: { request: z.object({ key: z.string() }), response: ok },
} as const;

export type QueryName = keyof typeof queries;
export type CommandName = keyof typeof commands;

/** What the engine pushes to the UI without being asked. */
export const engineEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), status: sessionStatus }),
  z.object({ type: z.literal('view'), view_id: z.string(), changes: narrowChangeSetSchema }),
  /** Areas whose queries may answer differently now (channels, users, snippets, typing, ...). */
  z.object({ type: z.literal('areas'), areas: z.array(z.string()) }),
]);
export type EngineEvent = z.output<typeof engineEventSchema>;
