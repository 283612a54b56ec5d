/**
 * Messages as stored and as the API shows them (spec "Message object"), per-user flags, and
 * register's `unread_msgs`. Sending lives in message-send.ts.
 *
 * Storage: `messages` holds the raw Markdown and the rendered HTML; `user_messages` has one row per
 * user who received the message (channel subscribers at send time, DM participants) with a flag
 * bitmask (flags.ts). Users who can read a channel message without a row see it as
 * `["read", "historical"]`.
 */
import { sql } from '../db/statements.js';
import type { ServerState } from '../state.js';
import { FLAG, flagNames, HISTORICAL_FLAGS, MENTION_BITS } from './flags.js';
import { getRealm } from './realm.js';
import { topicKey } from '../../common/topic-key.js';
import { hasUploadedAvatar } from './media.js';
import { avatarUrl, type UserRow } from './users.js';

export interface MessageRow {
  id: number;
  type: 'stream' | 'private';
  channel_id: number | null;
  topic: string;
  recipient_id: number;
  sender_id: number;
  content: string;
  rendered_content: string;
  date_sent: number;
  client: string;
  is_me_message: number;
  has_link: number;
  has_image: number;
  has_attachment: number;
  last_edit_timestamp: number | null;
  last_moved_timestamp: number | null;
  /** JSON array, most recent first; NULL if never edited or moved. */
  edit_history: string | null;
}

export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export function getMessage(srv: ServerState, id: number): MessageRow | undefined {
  return sql(srv, 'SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;
}

export interface ApiMessageOptions {
  readonly applyMarkdown: boolean;
  readonly clientGravatar: boolean;
  readonly allowEmptyTopicName: boolean;
  /** Include the viewer's `flags` on the object (GET); events carry flags beside it. Default true. */
  readonly includeFlags?: boolean;
}

/** Participants of a DM conversation, from its recipient row. */
export function dmParticipantIds(srv: ServerState, recipientId: number): number[] {
  const key = sql(srv, 'SELECT dm_key FROM recipients WHERE id = ?').pluck().get(recipientId) as string | null | undefined;
  return key ? key.split(',').map(Number) : [];
}

type SenderInfo = Pick<UserRow, 'id' | 'email' | 'delivery_email' | 'full_name' | 'avatar_version'>;

/**
 * Message objects for one viewer, in the order given. Batches its lookups (senders, channels,
 * reactions, submessages, flags) so a 1,000-message page costs a handful of queries.
 */
export function apiMessages(srv: ServerState, viewerId: number | null, rows: readonly MessageRow[], opts: ApiMessageOptions): Array<Record<string, unknown>> {
  if (rows.length === 0) return [];
  const realm = getRealm(srv);
  const ids = rows.map((r) => r.id);
  const idList = ids.join(',');
  const users = new Map<number, SenderInfo>();
  const userIds = new Set<number>(rows.map((r) => r.sender_id));
  const dmKeys = new Map<number, number[]>();
  for (const r of rows) {
    if (r.type === 'private' && !dmKeys.has(r.recipient_id)) {
      const parts = dmParticipantIds(srv, r.recipient_id);
      dmKeys.set(r.recipient_id, parts);
      for (const p of parts) userIds.add(p);
    }
  }
  const userRows = srv.db
    .prepare(`SELECT id, email, delivery_email, full_name, avatar_version FROM users WHERE id IN (${[...userIds].join(',')})`)
    .all() as SenderInfo[];
  for (const u of userRows) users.set(u.id, u);
  const channelNames = new Map<number, string>();
  for (const c of sql(srv, 'SELECT id, name FROM channels').all() as Array<{ id: number; name: string }>) channelNames.set(c.id, c.name);

  const reactions = groupByMessage(
    srv.db
      .prepare(`SELECT message_id, emoji_name, emoji_code, reaction_type, user_id FROM reactions WHERE message_id IN (${idList}) ORDER BY rowid`)
      .all() as Array<{ message_id: number; emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }>,
    (r) => ({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id }),
  );
  const submessages = groupByMessage(
    srv.db
      .prepare(`SELECT id, message_id, sender_id, msg_type, content FROM submessages WHERE message_id IN (${idList}) ORDER BY id`)
      .all() as Array<{ id: number; message_id: number; sender_id: number; msg_type: string; content: string }>,
    (s) => ({ msg_type: s.msg_type, content: s.content, message_id: s.message_id, sender_id: s.sender_id, id: s.id }),
  );
  const flags = new Map<number, number>();
  if (viewerId !== null && opts.includeFlags !== false) {
    const flagRows = srv.db
      .prepare(`SELECT message_id, flags FROM user_messages WHERE user_id = ? AND message_id IN (${idList})`)
      .all(viewerId) as Array<{ message_id: number; flags: number }>;
    for (const f of flagRows) flags.set(f.message_id, f.flags);
  }

  return rows.map((row) => {
    const sender = users.get(row.sender_id);
    const out: Record<string, unknown> = {
      id: row.id,
      sender_id: row.sender_id,
      content: opts.applyMarkdown ? row.rendered_content : row.content,
      recipient_id: row.recipient_id,
      timestamp: row.date_sent,
      client: row.client,
      subject: row.type === 'stream' ? (row.topic === '' && !opts.allowEmptyTopicName ? realm.empty_topic_display_name : row.topic) : '',
      topic_links: [],
      is_me_message: row.is_me_message === 1,
      reactions: reactions.get(row.id) ?? [],
      submessages: submessages.get(row.id) ?? [],
      sender_full_name: sender?.full_name ?? '',
      sender_email: sender?.email ?? '',
      sender_realm_str: realmStr(srv),
      display_recipient:
        row.type === 'stream'
          ? (channelNames.get(row.channel_id ?? -1) ?? '')
          : (dmKeys.get(row.recipient_id) ?? []).map((id) => {
              const u = users.get(id);
              return { id, email: u?.email ?? '', full_name: u?.full_name ?? '', is_mirror_dummy: false };
            }),
      type: row.type,
      avatar_url: sender && opts.clientGravatar && sender.email === sender.delivery_email && !hasUploadedAvatar(srv, sender.id) ? null : avatarUrl(srv, sender ?? { id: row.sender_id, avatar_version: 1 }),
      content_type: opts.applyMarkdown ? 'text/html' : 'text/x-markdown',
    };
    if (row.type === 'stream') out.stream_id = row.channel_id;
    if (row.last_edit_timestamp !== null) out.last_edit_timestamp = row.last_edit_timestamp;
    if (row.last_moved_timestamp !== null) out.last_moved_timestamp = row.last_moved_timestamp;
    const history = visibleEditHistory(row, realm.message_edit_history_visibility_policy, opts.allowEmptyTopicName, realm.empty_topic_display_name);
    if (history) out.edit_history = history;
    if (viewerId !== null && opts.includeFlags !== false) out.flags = flagNames(flags.get(row.id) ?? HISTORICAL_FLAGS);
    return out;
  });
}

/** Rows of a per-message table (reactions, submessages) grouped by message, each shaped as the API sends it, in row order. */
function groupByMessage<R extends { message_id: number }>(rows: readonly R[], shape: (row: R) => Record<string, unknown>): Map<number, Array<Record<string, unknown>>> {
  const out = new Map<number, Array<Record<string, unknown>>>();
  for (const r of rows) {
    const list = out.get(r.message_id) ?? [];
    list.push(shape(r));
    out.set(r.message_id, list);
  }
  return out;
}

export function apiMessage(srv: ServerState, viewerId: number | null, row: MessageRow, opts: ApiMessageOptions): Record<string, unknown> {
  return apiMessages(srv, viewerId, [row], opts)[0]!;
}

/** The realm's identifier in message objects (Zulip's realm string_id; one realm per server). */
export function realmStr(_srv: ServerState): string {
  return 'sandbox';
}

/** Edit history as the realm lets users see it: all, moves only (no content entries), or none. */
function visibleEditHistory(row: MessageRow, policy: 'all' | 'moves' | 'none', allowEmpty: boolean, emptyName: string): EditHistoryEntry[] | undefined {
  if (row.edit_history === null || policy === 'none') return undefined;
  let entries = JSON.parse(row.edit_history) as EditHistoryEntry[];
  if (policy === 'moves') {
    entries = entries
      .filter((e) => e.prev_topic !== undefined || e.prev_stream !== undefined)
      .map((e) => {
        const { prev_content: _c, prev_rendered_content: _r, ...rest } = e;
        return rest;
      });
  }
  if (entries.length === 0) return undefined;
  if (!allowEmpty) {
    entries = entries.map((e) => ({
      ...e,
      ...(e.prev_topic === '' ? { prev_topic: emptyName } : {}),
      ...(e.topic === '' ? { topic: emptyName } : {}),
    }));
  }
  return entries;
}

/** register's `unread_msgs` (docs/zulip-behaviour.md "Unread messages"): subscribed channels (muted included), DMs, mentions. */
export function unreadMsgs(srv: ServerState, userId: number, opts: { allowEmptyTopicName?: boolean } = {}) {
  const emptyName = getRealm(srv).empty_topic_display_name;
  const rows = sql(
    srv,
    `SELECT m.id, m.type, m.channel_id, m.topic, m.recipient_id, m.sender_id, um.flags
       FROM user_messages um CROSS JOIN messages m ON m.id = um.message_id
      WHERE um.user_id = ? AND (um.flags & ${FLAG.read}) = 0
        AND (m.type = 'private' OR EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = um.user_id AND s.channel_id = m.channel_id AND s.active = 1))
      ORDER BY m.id`,
  ).all(userId) as Array<{ id: number; type: string; channel_id: number | null; topic: string; recipient_id: number; sender_id: number; flags: number }>;
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
  const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  const participants = new Map<number, number[]>();
  for (const r of rows) {
    if (r.flags & MENTION_BITS) mentions.push(r.id);
    if (r.type === 'stream') {
      const topic = r.topic === '' && !opts.allowEmptyTopicName ? emptyName : r.topic;
      const key = `${r.channel_id}\u0000${topicKey(r.topic)}`;
      const entry = streams.get(key) ?? { stream_id: r.channel_id ?? 0, topic, unread_message_ids: [] };
      entry.unread_message_ids.push(r.id);
      streams.set(key, entry);
      continue;
    }
    let parts = participants.get(r.recipient_id);
    if (!parts) participants.set(r.recipient_id, (parts = dmParticipantIds(srv, r.recipient_id)));
    if (parts.length <= 2) {
      const other = parts.find((p) => p !== userId) ?? userId;
      const entry = pms.get(other) ?? { other_user_id: other, sender_id: other, unread_message_ids: [] };
      entry.unread_message_ids.push(r.id);
      pms.set(other, entry);
    } else {
      const key = parts.join(',');
      const entry = huddles.get(key) ?? { user_ids_string: key, unread_message_ids: [] };
      entry.unread_message_ids.push(r.id);
      huddles.set(key, entry);
    }
  }
  return {
    count: rows.length,
    pms: [...pms.values()],
    streams: [...streams.values()],
    huddles: [...huddles.values()],
    mentions,
    old_unreads_missing: false,
  };
}
