/**
 * 0005: a stored "is head" mark on outbox rows, so finding runnable heads reads only heads.
 *
 * After 0003 the pusher's query walked every queued row in order and probed, for each, whether an
 * older live row of its entity exists. Rows queued behind a blocked head (5,000 sends of one
 * conversation behind a send waiting out a backoff) were each read and rejected on every call:
 * about 3 ms per call, growing with the queue behind the head (bench/outbox-heads.bench.ts).
 *
 * Now `is_head` = 1 on exactly the oldest live (not done, not discarded) row of each entity, and
 * the partial indexes hold only heads:
 *  - `outbox_queued_heads`: queued heads in the pusher's order (deadline first, soonest first,
 *    then by age); replaces `outbox_queued_order`.
 *  - `outbox_waiting_heads`: heads waiting out a backoff (retry_wait, unknown) by when they are
 *    due; replaces `outbox_waiting_due`.
 *  - `outbox_head_of_entity`: the one probe the triggers need to find an entity's current head.
 *    Not UNIQUE: a head whose entity key changes (a temporary id resolved) carries its mark into
 *    an entity that may have its own head until the trigger that follows fixes both.
 *
 * SQLite triggers keep the mark, whoever writes the table (the store, the tests' raw SQL, a future
 * migration): a live row inserted without an older live row of its entity becomes the head; when
 * a row leaves or enters the live states or changes entity (a temporary id resolved), the entities
 * concerned get their head recomputed (two index probes each); a deleted head hands over to the
 * next live row. Moves between live states (queued -> sending -> retry_wait ...) change no head
 * and fire nothing. Existing rows are marked here.
 */
import type { Migration } from './types.js';

const LIVE = "state NOT IN ('done', 'discarded')";
/** The id of entity `key`'s oldest live row (one probe of outbox_live_by_entity), or NULL. */
const headOf = (key: string) => `(SELECT MIN(id) FROM outbox WHERE entity_key = ${key} AND ${LIVE})`;
/** Statements that make the marks of entity `key` true again. */
const recompute = (key: string) => `
    UPDATE outbox SET is_head = 0 WHERE entity_key = ${key} AND is_head = 1 AND id IS NOT ${headOf(key)};
    UPDATE outbox SET is_head = 1 WHERE id = ${headOf(key)} AND is_head = 0;`;

export const migration: Migration = {
  version: 5,
  name: 'outbox-head-mark',
  up: `
    ALTER TABLE outbox ADD COLUMN is_head INTEGER NOT NULL DEFAULT 0 CHECK (is_head IN (0, 1));
    UPDATE outbox SET is_head = 1 WHERE ${LIVE}
      AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_key = outbox.entity_key AND p.id < outbox.id AND p.${LIVE});
    CREATE INDEX outbox_head_of_entity ON outbox (entity_key) WHERE is_head = 1;

    DROP INDEX outbox_queued_order;
    DROP INDEX outbox_waiting_due;
    CREATE INDEX outbox_queued_heads ON outbox (deadline_at IS NULL, deadline_at, id) WHERE state = 'queued' AND is_head = 1;
    CREATE INDEX outbox_waiting_heads ON outbox (coalesce(next_attempt_at, 0)) WHERE state IN ('retry_wait', 'unknown') AND is_head = 1;
    CREATE INDEX outbox_live_by_kind ON outbox (kind, id) WHERE ${LIVE};

    -- A new live row is its entity's head unless an older live row exists (an insert with an
    -- explicit older id takes over from the current head).
    CREATE TRIGGER outbox_head_on_insert AFTER INSERT ON outbox WHEN NEW.${LIVE}
    BEGIN
      UPDATE outbox SET is_head = 0 WHERE entity_key = NEW.entity_key AND is_head = 1 AND id > NEW.id;
      UPDATE outbox SET is_head = 1 WHERE id = NEW.id AND is_head = 0
        AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_key = NEW.entity_key AND p.id < NEW.id AND p.${LIVE});
    END;

    -- Only a row leaving or entering the live states, or changing entity, can move a head.
    CREATE TRIGGER outbox_head_on_update AFTER UPDATE OF state, entity_key ON outbox
    WHEN (OLD.state IN ('done', 'discarded')) != (NEW.state IN ('done', 'discarded')) OR OLD.entity_key != NEW.entity_key
    BEGIN${recompute('OLD.entity_key')}${recompute('NEW.entity_key')}
    END;

    CREATE TRIGGER outbox_head_on_delete AFTER DELETE ON outbox WHEN OLD.is_head = 1
    BEGIN
      UPDATE outbox SET is_head = 1 WHERE id = ${headOf('OLD.entity_key')} AND is_head = 0;
    END;
  `,
};
