/**
 * 0010: the summaries of 0009 can be paused for a bulk write.
 *
 * 0009's triggers keep `unread_summary` and `cached_topics` exact row by row. For a bulk write (a
 * 1,000-message history batch, register's whole unread set) that cost more than the write itself:
 * a trigger program per row and per trigger, and finding a busy topic's newest unread again walked
 * its server rows once per message. Now every trigger also needs `summary_paused` to be empty. A
 * bulk writer adds a row there, writes (many rows per statement: a table with triggers costs a
 * statement's setup per statement, not per row), removes its row, and computes the groups it
 * touched again from the rows, in the same transaction (db/queries/summaries.ts). Other writers
 * change nothing. The schema itself never changes at run time.
 *
 * `server_unreads_by_dm` finds a DM conversation's server rows for that recompute.
 */
import { summarySchema } from './0009-unread-summary.js';
import type { Migration } from './types.js';

/** The condition every summary trigger needs: no bulk writer is at work. */
const SUMMARIES_LIVE = 'NOT EXISTS (SELECT 1 FROM summary_paused)';

export const migration: Migration = {
  version: 10,
  name: 'summary-pause',
  up: (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS summary_paused (id INTEGER PRIMARY KEY);
      CREATE INDEX IF NOT EXISTS server_unreads_by_dm ON server_unreads(dm_key) WHERE channel_id IS NULL;
      ${summarySchema(SUMMARIES_LIVE)}`);
  },
};
