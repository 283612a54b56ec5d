/**
 * Edit history: the stored entries (spec "Edit history entry fields": `user_id` and `timestamp`
 * always; `prev_content` + `prev_rendered_content` only for content edits; `prev_stream` + `stream`
 * only when the channel changed; `prev_topic` + `topic` only when the topic changed), most recent
 * first in `messages.edit_history`, and the snapshots of GET /messages/{id}/history (Zulip's
 * fill_edit_history_entries: the state right after each edit, oldest first, the original last).
 */
import { badRequest } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import type { EditHistoryEntry } from '../messages.js';
import { getRealm } from '../realm.js';
import { htmlDiff } from './html-diff.js';

export type { EditHistoryEntry };

export interface HistorySnapshot {
  topic: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

export function parseHistory(raw: string | null): EditHistoryEntry[] {
  if (!raw) return [];
  const parsed: unknown = JSON.parse(raw);
  return Array.isArray(parsed) ? (parsed as EditHistoryEntry[]) : [];
}

/** Prepends an entry (most recent first) to a message's stored history. */
export function appendHistory(srv: ServerState, messageId: number, entry: EditHistoryEntry): void {
  const raw = srv.db.prepare('SELECT edit_history FROM messages WHERE id = ?').pluck().get(messageId) as string | null | undefined;
  const history = parseHistory(raw ?? null);
  history.unshift(entry);
  srv.db.prepare('UPDATE messages SET edit_history = ? WHERE id = ?').run(JSON.stringify(history), messageId);
}

interface HistoryMessage {
  readonly id: number;
  readonly sender_id: number;
  readonly date_sent: number;
  readonly topic: string;
  readonly content: string;
  readonly rendered_content: string;
  readonly edit_history: string | null;
}

/**
 * Zulip's visible_edit_history_for_message for the `moves` policy: content-only edits disappear,
 * and edits that also moved keep only their move fields.
 */
function visibleEntries(entries: HistorySnapshot[], policy: 'all' | 'moves' | 'none'): HistorySnapshot[] {
  if (policy === 'all') return entries;
  const out: HistorySnapshot[] = [];
  for (const e of entries) {
    if (e.prev_content !== undefined) {
      if (e.prev_topic === undefined && e.prev_stream === undefined) continue;
      delete e.prev_content;
      delete e.prev_rendered_content;
      delete e.content_html_diff;
    }
    out.push(e);
  }
  return out;
}

/**
 * GET /messages/{id}/history: one snapshot per edit with the values right after it (oldest
 * first; the first is the original message with only topic, content, rendered_content,
 * timestamp and user_id). Refused when the realm's visibility policy is `none`.
 */
export function messageHistory(srv: ServerState, m: HistoryMessage, allowEmptyTopicName: boolean): HistorySnapshot[] {
  const realm = getRealm(srv);
  const policy = realm.message_edit_history_visibility_policy;
  if (policy === 'none') throw badRequest('Message edit history is disabled in this organization');
  const topicName = (t: string) => (t === '' && !allowEmptyTopicName ? realm.empty_topic_display_name : t);

  let content = m.content;
  let rendered = m.rendered_content;
  let topic = m.topic;
  const snapshots: HistorySnapshot[] = [];
  for (const entry of parseHistory(m.edit_history)) {
    const snap: HistorySnapshot = { content, rendered_content: rendered, timestamp: entry.timestamp, topic: topicName(topic), user_id: entry.user_id };
    if (entry.prev_topic !== undefined) {
      topic = entry.prev_topic;
      snap.prev_topic = topicName(topic);
    }
    if (entry.prev_content !== undefined) {
      snap.prev_content = entry.prev_content;
      snap.prev_rendered_content = entry.prev_rendered_content ?? '';
      snap.content_html_diff = htmlDiff(snap.prev_rendered_content, rendered);
      content = entry.prev_content;
      rendered = snap.prev_rendered_content;
    }
    if (entry.prev_stream !== undefined) {
      snap.prev_stream = entry.prev_stream;
      if (entry.stream !== undefined) snap.stream = entry.stream;
    }
    snapshots.push(snap);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: m.date_sent, topic: topicName(topic), user_id: m.sender_id });
  return visibleEntries(snapshots, policy).reverse();
}
