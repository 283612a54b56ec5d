/**
 * 0004: what the user typed and what they may edit offline.
 *  - `drafts`: the composer's text per conversation (channel + topic, a channel's new topic, a DM
 *    group), saved as the user types; a send deletes it in the transaction that queues the send.
 *  - `message_raw`: the raw Markdown of messages the user may edit (their own, still editable, and
 *    any whose raw text was fetched), so Edit opens offline with exactly the text the server has
 *    and the queued edit carries that text's hash. `content` HTML in `messages` is not enough:
 *    Markdown cannot be recovered from it.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 4,
  name: 'drafts-raw',
  up: `
    CREATE TABLE drafts (
      key        TEXT PRIMARY KEY,           -- the conversation (engine/drafts.ts draftKey)
      target     TEXT NOT NULL,              -- JSON: { type: 'channel', channel_id, topic } | { type: 'direct', user_ids }
      content    TEXT NOT NULL,
      updated_at INTEGER NOT NULL            -- UNIX ms
    );
    CREATE TABLE message_raw (
      message_id INTEGER PRIMARY KEY,
      raw        TEXT NOT NULL,
      fetched_at INTEGER NOT NULL            -- UNIX ms
    );
  `,
};
