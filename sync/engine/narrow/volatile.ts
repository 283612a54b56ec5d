/**
 * Narrows over channel history the event stream does not cover: a channel the user is not
 * subscribed to (or `channels:public`, which takes in such channels). The server sends no events
 * about messages there he holds no per-user row for (new ones, edits, moves, deletes), so nothing
 * local proves such a narrow current: its ranges are dropped before every read (the fetcher asks
 * the server again), and cached row-less messages of unsubscribed channels that the narrow matched
 * locally but the server's answer left out are stale copies and leave the cache.
 */
import { HAS_ROW } from '../../db/flags.js';
import type { LocalDb } from '../../db/open.js';
import { deleteMessages } from '../../db/queries/messages.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { CompiledLocalNarrow } from '../../db/narrow/compile.js';
import type { IdRange } from './ranges.js';

export function isVolatile(db: LocalDb, n: CompiledLocalNarrow): boolean {
  if (!n.includesHistory) return false;
  const subscribed = db.prepare('SELECT 1 FROM subscriptions WHERE channel_id = ?').pluck();
  return n.terms.some(
    (t) => !t.negated && ((t.operator === 'channel' && subscribed.get(Number(t.operand)) === undefined) || (t.operator === 'channels' && t.operand === 'public')),
  );
}

export function forgetRanges(db: LocalDb, n: CompiledLocalNarrow): void {
  db.prepare('DELETE FROM narrow_ranges WHERE narrow_key = ?').run(n.key);
}

/** Drop the stale copies within the answered span (call after storing the answer). */
export function dropStale(db: LocalDb, n: CompiledLocalNarrow, span: IdRange, answered: readonly number[], changes: ChangeCollector): void {
  const ids = db
    .prepare<unknown[], number>(
      `SELECT m.id FROM messages m WHERE (${n.where}) AND m.id BETWEEN ? AND ? AND (m.flags & ${HAS_ROW}) = 0
         AND m.channel_id NOT IN (SELECT channel_id FROM subscriptions) AND m.id NOT IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(...n.params, span.lo, span.hi, JSON.stringify(answered));
  deleteMessages(db, ids, changes);
}
