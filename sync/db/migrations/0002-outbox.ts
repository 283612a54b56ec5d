/**
 * 0002: the durable outbox (docs/sync-design.md "The outbox").
 *
 * `outbox` is a durable table: a row is an intent the user expressed, possibly offline, and must
 * survive restarts, crashes and app upgrades. `args` is the persisted contract of its `kind` at
 * `kind_version`; `base` is what the user saw when they acted (for content edits the raw Markdown
 * and its SHA-256). Times are UNIX ms. `history` is a JSON array of transitions and merges, kept so a
 * person (or a bug report) can see what happened to an intent.
 *
 * `outbox_temp_ids` hands out the `tmp-N` ids of objects created offline and remembers the server
 * id each one got, so an intent enqueued with a stale temporary id after its create landed is still
 * pointed at the right object.
 */
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 2,
  name: 'outbox',
  up: `
    CREATE TABLE outbox (
      id               INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: history and the UI name rows by id
      kind             TEXT NOT NULL,
      kind_version     INTEGER NOT NULL,
      entity_key       TEXT NOT NULL,
      args             TEXT NOT NULL,                      -- JSON
      base             TEXT NOT NULL DEFAULT 'null',       -- JSON
      state            TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'retry_wait', 'done', 'failed',
                                                      'conflict', 'unknown', 'verifying', 'discarded')),
      attempts         INTEGER NOT NULL DEFAULT 0,
      next_attempt_at  INTEGER,
      deadline_at      INTEGER,
      last_error       TEXT,                               -- JSON
      created_at       INTEGER NOT NULL,
      updated_at       INTEGER NOT NULL,
      history          TEXT NOT NULL DEFAULT '[]'          -- JSON
    );
    -- The head of each entity (its oldest live row) decides what may run: partial, so done and
    -- discarded rows awaiting pruning cost nothing.
    CREATE INDEX outbox_live_by_entity ON outbox (entity_key, id) WHERE state NOT IN ('done', 'discarded');
    CREATE INDEX outbox_by_state ON outbox (state, next_attempt_at);
    CREATE INDEX outbox_finished ON outbox (updated_at) WHERE state IN ('done', 'discarded');

    CREATE TABLE outbox_temp_ids (
      n          INTEGER PRIMARY KEY AUTOINCREMENT,          -- tmp-N; never reused
      server_id  TEXT                                        -- set when the create lands
    );
  `,
};
