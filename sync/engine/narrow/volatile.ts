/**
 * Narrows over channel history the event stream does not cover: a channel the user is not
 * subscribed to (or `channels:public`, which takes in such channels). The server sends no events
 * about messages there he holds no per-user row for (new ones, edits, moves, deletes), so nothing
 * local proves such a narrow current: its ranges are dropped before every read (the fetcher asks
 * the server again), and cached row-less messages of unsubscribed channels that the narrow matched
 * locally but the server's answer left out are stale copies and leave the cache.
 */
import type { LocalDb } from '../../db/open.js';
import { isSubscribed } from '../../db/queries/channels.js';
import { deleteMessages } from '../../db/queries/messages.js';
import { deleteRangesOf } from '../../db/queries/narrow-ranges.js';
import { staleCopyIds } from '../../db/queries/narrow-rows.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { CompiledLocalNarrow } from '../../db/narrow/compile.js';
import type { IdRange } from './ranges.js';

export function isVolatile(db: LocalDb, n: CompiledLocalNarrow): boolean {
  if (!n.includesHistory) return false;
  return n.terms.some(
    (t) => !t.negated && ((t.operator === 'channel' && !isSubscribed(db, Number(t.operand))) || (t.operator === 'channels' && t.operand === 'public')),
  );
}

export function forgetRanges(db: LocalDb, n: CompiledLocalNarrow): void {
  deleteRangesOf(db, n.key);
}

/** Drop the stale copies within the answered span (call after storing the answer). */
export function dropStale(db: LocalDb, n: CompiledLocalNarrow, span: IdRange, answered: readonly number[], changes: ChangeCollector): void {
  const ids = staleCopyIds(db, n, span.lo, span.hi, answered);
  deleteMessages(db, ids, changes);
}
