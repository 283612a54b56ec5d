/**
 * A message's edit history for the UI: the text first posted, content diffs (word level), topic
 * and channel moves.
 *
 * From the cached message's `edit_history` when it has one (works offline), else from
 * `GET /messages/{id}/history` when online. Cached entries are Zulip's: newest first, each holding
 * the state BEFORE that edit (`prev_rendered_content`, `prev_topic`, `prev_stream`) and, for moves,
 * the state after (`topic`, `stream`); the content after an edit is the next newer entry's
 * `prev_rendered_content`, or the current content for the newest. Diffs compare text extracted from
 * the rendered HTML (common/html-text.ts), the only form of older contents the cache has.
 */
import { diffArrays } from 'diff';
import { htmlText } from '../../common/html-text.js';
import { getMessageHistory, type ApiConnection, type Message, type MessageSnapshot } from '../api/index.js';
import type { EditHistory } from '../protocol/commands.js';

type Step = EditHistory['steps'][number];
export type DiffPart = NonNullable<Step['content_diff']>[number];

/** Past this many words on either side a diff is "all removed, all added" rather than a long computation. */
export const MAX_DIFF_WORDS = 2000;

/**
 * Word diff: jsdiff's Myers diff over the whitespace-separated words (a shortest edit script, so as
 * many words stay `same` as a longest common subsequence keeps). Adjacent parts of the same kind
 * are merged, their words joined by one space.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  const out: DiffPart[] = [];
  const push = (op: DiffPart['op'], words: readonly string[]) => {
    if (words.length === 0) return;
    const last = out.at(-1);
    const text = words.join(' ');
    if (last && last.op === op) out[out.length - 1] = { op, text: `${last.text} ${text}` };
    else out.push({ op, text });
  };
  if (a.length > MAX_DIFF_WORDS || b.length > MAX_DIFF_WORDS) {
    push('removed', a);
    push('added', b);
    return out;
  }
  for (const change of diffArrays(a, b)) push(change.added ? 'added' : change.removed ? 'removed' : 'same', change.value);
  return out;
}

/** Steps from a cached message's `edit_history` (undefined when it carries none). */
export function historyFromCache(m: Message): EditHistory | undefined {
  const entries = m.edit_history;
  if (entries === undefined) return undefined;
  const steps: Step[] = [];
  // Oldest first: walk Zulip's newest-first list backwards.
  for (let k = entries.length - 1; k >= 0; k--) {
    const e = entries[k]!;
    let content_diff: Step['content_diff'] = null;
    if (e.prev_rendered_content !== undefined) {
      const newer = k > 0 ? entries.slice(0, k).reverse().find((x) => x.prev_rendered_content !== undefined) : undefined;
      const after = newer?.prev_rendered_content ?? m.content;
      content_diff = wordDiff(htmlText(e.prev_rendered_content), htmlText(after));
    }
    steps.push({
      user_id: e.user_id,
      timestamp: e.timestamp,
      content_diff,
      topic: e.prev_topic !== undefined ? { from: e.prev_topic, to: e.topic ?? m.subject } : null,
      channel: e.prev_stream !== undefined ? { from: e.prev_stream, to: e.stream ?? m.stream_id ?? e.prev_stream } : null,
    });
  }
  // The original is the state before the oldest content edit, or the content now when none changed it.
  const first = entries.filter((e) => e.prev_rendered_content !== undefined).at(-1)?.prev_rendered_content ?? m.content;
  return { message_id: m.id, source: 'cache', original: htmlText(first), steps };
}

/** Steps from the server's snapshots (oldest first; the first is the original message). */
export function historyFromSnapshots(messageId: number, snapshots: readonly MessageSnapshot[]): EditHistory {
  const steps: Step[] = [];
  for (const s of snapshots.slice(1)) {
    steps.push({
      user_id: s.user_id,
      timestamp: s.timestamp,
      content_diff: s.prev_rendered_content !== undefined ? wordDiff(htmlText(s.prev_rendered_content), htmlText(s.rendered_content)) : null,
      topic: s.prev_topic !== undefined ? { from: s.prev_topic, to: s.topic } : null,
      channel: s.prev_stream !== undefined && s.stream !== undefined ? { from: s.prev_stream, to: s.stream } : null,
    });
  }
  return { message_id: messageId, source: 'server', original: htmlText(snapshots[0]?.rendered_content ?? ''), steps };
}

/**
 * The history of one message: the cache first; the server when the cache has no history for it
 * (not cached, or cached without `edit_history` although it was edited or moved).
 */
export async function editHistory(conn: ApiConnection | undefined, cached: Message | undefined, messageId: number): Promise<EditHistory> {
  const fromCache = cached && historyFromCache(cached);
  if (fromCache) return fromCache;
  const neverEdited = cached !== undefined && cached.last_edit_timestamp === undefined && cached.last_moved_timestamp === undefined;
  if (neverEdited) return { message_id: messageId, source: 'cache', original: htmlText(cached.content), steps: [] };
  if (!conn) throw new Error(`no edit history cached for message ${messageId}, and no connection`);
  const res = await getMessageHistory(conn, { messageId, allow_empty_topic_name: true });
  return historyFromSnapshots(messageId, res.message_history);
}
