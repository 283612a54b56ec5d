/**
 * 0003: indexes that let the pusher find runnable heads without reading every live outbox row.
 *
 * Before, `OutboxStore.runnableHeads` grouped all live rows by entity to find each entity's head,
 * then sorted: cost grew with the outbox (about 0.2 ms at 500 live rows, 2 ms at 5,000; the pusher
 * asks after every completed row). Both indexes are partial, so they hold only rows that may be
 * about to run:
 *  - `outbox_queued_order`: queued rows in the order the pusher takes them (rows with a deadline
 *    first, soonest first, then by age), so a walk from the start with LIMIT stops after a few
 *    rows; each candidate's head check is one probe of `outbox_live_by_entity`.
 *  - `outbox_waiting_due`: rows waiting out a backoff (retry_wait, unknown) by when they are due,
 *    so only the due ones are read, and `nextWakeAt` is the first entry.
 * The expressions must match the queries' exactly (see sync/db/queries/outbox.ts, which names these
 * indexes with INDEXED BY so that losing them is an error, not a slow scan).
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 3,
  name: 'outbox-heads',
  up: `
    CREATE INDEX outbox_queued_order ON outbox (deadline_at IS NULL, deadline_at, id) WHERE state = 'queued';
    CREATE INDEX outbox_waiting_due ON outbox (coalesce(next_attempt_at, 0)) WHERE state IN ('retry_wait', 'unknown');
  `,
};
