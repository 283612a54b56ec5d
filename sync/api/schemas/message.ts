/**
 * The message object (spec "Message object"), its edit-history entries, reactions and submessages.
 * Built at import, unlike most schemas (docs/architecture.md rule 3): parsed per element of every
 * page and event, where a `z.lazy` in front would slow each parse.
 */
import * as z from 'zod';
import { int, openEnum } from './envelope.js';

/** Reaction (spec: three `reaction_type`s). `user_id` is the modern field; old servers sent `user`. */
export const reaction = z.object({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: openEnum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']),
  user_id: int,
});
export type Reaction = z.output<typeof reaction>;

export const submessage = z.object({
  msg_type: z.string(),
  content: z.string(),
  message_id: int,
  sender_id: int,
  id: int,
});
export type Submessage = z.output<typeof submessage>;

/** Edit history entry: only `user_id` and `timestamp` are always present (spec table). */
export const editHistoryEntry = z.object({
  user_id: int.nullable(),
  timestamp: int,
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  prev_stream: int.optional(),
  stream: int.optional(),
  prev_topic: z.string().optional(),
  topic: z.string().optional(),
});
export type EditHistoryEntry = z.output<typeof editHistoryEntry>;

/** Links generated from the topic by linkifiers; very old servers sent bare URL strings. */
export const topicLink = z.union([
  z.object({ text: z.string(), url: z.string() }),
  z.string().transform((url) => ({ text: url, url })),
]);

export const dmRecipient = z.object({
  id: int,
  email: z.string(),
  full_name: z.string(),
  is_mirror_dummy: z.boolean().optional(),
});
export type DmRecipient = z.output<typeof dmRecipient>;

/**
 * The message object as fetched. `flags` sits on the message in `GET /messages` but beside it in
 * `message` events, so it defaults to `[]`. `avatar_url` may be absent with the
 * `user_avatar_url_field_optional` capability. `match_*` appear only with a `search` narrow.
 */
export const message = z.object({
  id: int,
  type: openEnum(['stream', 'private']),
  stream_id: int.optional(),
  subject: z.string(),
  topic_links: z.array(topicLink).optional(),
  content: z.string(),
  content_type: openEnum(['text/html', 'text/x-markdown']),
  timestamp: int,
  client: z.string(),
  avatar_url: z.string().nullable().optional(),
  display_recipient: z.union([z.string(), z.array(dmRecipient)]),
  recipient_id: int,
  sender_id: int,
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_realm_str: z.string(),
  is_me_message: z.boolean(),
  flags: z.array(z.string()).default([]),
  reactions: z.array(reaction),
  submessages: z.array(submessage),
  edit_history: z.array(editHistoryEntry).optional(),
  last_edit_timestamp: int.optional(),
  last_moved_timestamp: int.optional(),
  match_content: z.string().optional(),
  match_subject: z.string().optional(),
});
export type Message = z.output<typeof message>;

/**
 * An uploaded file (spec "Attachment"; `GET /attachments`), and a file whose only references an
 * edit removed (spec "Detached upload"): one shape. FL 443 uses seconds for `create_time`; FL 472
 * replaced `messages` with `message_ids`: both are accepted.
 */
export const attachment = z.object({
  id: int,
  name: z.string(),
  path_id: z.string(),
  size: int,
  create_time: z.number(),
  messages: z.array(z.object({ date_sent: z.number(), id: int })).optional(),
  message_ids: z.array(int).optional(),
});
export type Attachment = z.output<typeof attachment>;
export const detachedUpload = attachment;
export type DetachedUpload = z.output<typeof detachedUpload>;
