/**
 * 0010: a DM conversation's server unread rows by its key. A bulk write (db/queries/summaries.ts)
 * computes the unread summary of each conversation it touched again from the rows; without this
 * index that read is a scan of every server row (100,000 in a large organisation).
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 10,
  name: 'unread-by-dm',
  up: 'CREATE INDEX IF NOT EXISTS server_unreads_by_dm ON server_unreads(dm_key) WHERE channel_id IS NULL;',
};
