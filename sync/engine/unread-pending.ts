/**
 * What the outbox's pending rows change in unread and starred state for messages the cache does
 * not hold. Cached messages already show a pending row's effect (its optimistic local effect); the
 * server's sets (db/queries/unreads.ts) do not, so the counts read these exclusions on top:
 *
 *  - `update_message_flags` read: the ids marked read (a later mark-unread of the same id takes it back);
 *    starred: each id's starred state after the user's last action;
 *  - `mark_topic_as_read`: the topic, by key;
 *  - `update_message_flags_for_narrow`: the narrow as SQL, when it only uses what a server row knows (channel,
 *    topic, conversation, `is:` flags a row carries); other narrows (a search, a sender) wait for
 *    the server's events.
 *
 * Rows are read in the order the user acted; only live rows count (a done row's effect arrives as
 * the server's events).
 */
import { topicKey } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { liveRowsOfKinds } from '../db/queries/outbox.js';
import type { UnreadExclusions } from '../db/queries/unreads.js';
import { MARK_NARROW_READ_KIND, markNarrowReadArgs } from '../outbox/mutations/mark-narrow-read.js';
import { markTopicReadArgs } from '../outbox/mutations/mark-topic-read.js';
import { MESSAGE_FLAGS_KIND, messageFlagsArgs } from '../outbox/mutations/message-flags.js';
import { canonicalTerms, compileLocalNarrow, LocalNarrowError } from '../db/narrow/compile.js';

const MARK_TOPIC_READ_KIND = 'mark_topic_as_read';

/** Operators (and `is:` operands) a server unread row can answer. */
const ROW_OPERATORS = new Set(['channel', 'channels', 'topic', 'dm', 'dm-including', 'in']);
const ROW_IS = new Set(['dm', 'private', 'unread', 'mentioned', 'followed', 'muted', 'resolved']);

export interface PendingUnreadChanges {
  readonly exclusions: UnreadExclusions;
  /** Message id → starred after the user's last pending action. */
  readonly stars: ReadonlyMap<number, boolean>;
}

export function pendingUnreadChanges(db: LocalDb, selfUserId: number | undefined): PendingUnreadChanges {
  const rows = liveRowsOfKinds(db, [MESSAGE_FLAGS_KIND, MARK_TOPIC_READ_KIND, MARK_NARROW_READ_KIND]);
  const read = new Set<number>();
  const stars = new Map<number, boolean>();
  const topics: Array<readonly [number, string]> = [];
  const narrows: Array<{ where: string; params: ReadonlyArray<string | number> }> = [];
  for (const r of rows) {
    const args: unknown = JSON.parse(r.args);
    if (r.kind === MESSAGE_FLAGS_KIND) {
      const a = messageFlagsArgs.safeParse(args);
      if (!a.success) continue;
      for (const id of a.data.messages) {
        if (a.data.flag === 'starred') stars.set(id, a.data.op === 'add');
        else if (a.data.op === 'add') read.add(id);
        else read.delete(id);
      }
    } else if (r.kind === MARK_TOPIC_READ_KIND) {
      const a = markTopicReadArgs.safeParse(args);
      if (a.success) topics.push([a.data.stream_id, topicKey(a.data.topic_name)]);
    } else if (selfUserId !== undefined) {
      const a = markNarrowReadArgs.safeParse(args);
      const n = a.success ? rowNarrow(db, a.data.narrow, selfUserId) : undefined;
      if (n) narrows.push(n);
    }
  }
  return { exclusions: { readIds: [...read], topics, narrows }, stars };
}

/** The narrow as SQL over server rows, or undefined when it asks what a row does not know. */
function rowNarrow(db: LocalDb, narrow: unknown, selfUserId: number): { where: string; params: ReadonlyArray<string | number> } | undefined {
  try {
    const terms = canonicalTerms(db, narrow, selfUserId);
    const answerable = terms.every((t) => ROW_OPERATORS.has(t.operator) || (t.operator === 'is' && ROW_IS.has(String(t.operand))));
    if (!answerable) return undefined;
    const n = compileLocalNarrow(db, narrow, selfUserId);
    return { where: n.where, params: n.params };
  } catch (e) {
    if (e instanceof LocalNarrowError) return undefined; // the server's events will say
    throw e;
  }
}
