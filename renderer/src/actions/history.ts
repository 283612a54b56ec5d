/**
 * Pure: a message's edit history (the engine's `editHistory`, oldest first) as the panel lists it:
 * who posted it, when and what it said, then each change with who made it and when: the content's word diff,
 * a rename of the topic, a move to another channel, or the topic resolved / unresolved (Zulip
 * marks a resolved topic with a "✔ " prefix, so a rename that only adds or drops it is that).
 */
import type { EditHistory } from '../../../sync/protocol/commands.js';
import { isResolved, RESOLVED_PREFIX } from './topic-actions.js';

type Step = EditHistory['steps'][number];
export type DiffPart = NonNullable<Step['content_diff']>[number];

export type Change =
  | { kind: 'content'; diff: DiffPart[] }
  | { kind: 'topic'; from: string; to: string }
  | { kind: 'resolved' }
  | { kind: 'unresolved' }
  | { kind: 'channel'; from: number; to: number }
  /** The whole text as first posted (the original version's only "change"). */
  | { kind: 'original'; text: string };

export interface HistoryEntry {
  /** `posted` for the original message, else `edited` (the content changed) or `moved`. */
  kind: 'posted' | 'edited' | 'moved';
  userId: number | null;
  /** UNIX seconds. */
  timestamp: number;
  changes: Change[];
}

const bare = (t: string) => (isResolved(t) ? t.slice(RESOLVED_PREFIX.length) : t);

/** The changes of one topic rename: resolving or unresolving, a rename, or both at once. */
function topicChanges(from: string, to: string): Change[] {
  const out: Change[] = [];
  if (!isResolved(from) && isResolved(to)) out.push({ kind: 'resolved' });
  if (isResolved(from) && !isResolved(to)) out.push({ kind: 'unresolved' });
  if (bare(from) !== bare(to)) out.push({ kind: 'topic', from, to });
  return out;
}

export function historyEntries(h: EditHistory, posted: { userId: number; timestamp: number }): HistoryEntry[] {
  const out: HistoryEntry[] = [{ kind: 'posted', userId: posted.userId, timestamp: posted.timestamp, changes: [{ kind: 'original', text: h.original }] }];
  for (const s of h.steps) {
    const changes: Change[] = [];
    if (s.content_diff !== null) changes.push({ kind: 'content', diff: s.content_diff });
    if (s.topic !== null) changes.push(...topicChanges(s.topic.from, s.topic.to));
    if (s.channel !== null && s.channel.from !== s.channel.to) changes.push({ kind: 'channel', from: s.channel.from, to: s.channel.to });
    out.push({ kind: s.content_diff !== null ? 'edited' : 'moved', userId: s.user_id, timestamp: s.timestamp, changes });
  }
  return out;
}

/** The heading of an entry: "Posted by Iago", "Edited by you", "Resolved by King Hamlet", "Moved by …". */
export function entryTitle(e: HistoryEntry, who: string): string {
  if (e.kind === 'posted') return `Posted by ${who}`;
  if (e.kind === 'edited') return `Edited by ${who}`;
  const only = e.changes.length === 1 ? e.changes[0]?.kind : undefined;
  if (only === 'resolved') return `Resolved by ${who}`;
  if (only === 'unresolved') return `Unresolved by ${who}`;
  return `Moved by ${who}`;
}
