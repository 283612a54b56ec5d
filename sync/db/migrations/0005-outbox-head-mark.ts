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
 *
 * SQLite triggers keep the mark, whoever writes the table (the store, the tests' raw SQL, a future
 * migration) and whatever mark an insert gives. A write changes one row, and only two marks can
 * then be wrong: the row's own (it is its entity's head iff it is live and no older live row of
 * the entity exists), and that of the next live row after it in its entity (no longer the head if
 * the row is live and older), or, for the entity it left or died in, the oldest remaining live row
 * (now the head). Each is one probe of `outbox_live_by_entity`; a row is rewritten only when its
 * mark changes (OutboxStore.enqueue gives the right mark, so an enqueue rewrites nothing). Moves
 * between live states (queued -> sending -> retry_wait ...) change no head and fire nothing.
 * Multi-row statements work too: SQLite runs the triggers after each row.
 *
 * Also `outbox_live_by_kind`: live rows by kind, so re-applying pending rows after an event batch
 * (engine/outbox-local.ts `reapplyTouched`: rows on the touched messages, plus rows of the kinds a
 * touched area names) probes two indexes instead of reading every outbox row.
 *
 * Existing rows are marked here.
 */
import type { Migration } from './types.js';

const LIVE = "state NOT IN ('done', 'discarded')";
const DEAD = (row: string) => `${row}.state IN ('done', 'discarded')`;
/** The oldest live row of entity `key` (one probe of outbox_live_by_entity), or NULL. */
const headOf = (key: string) => `(SELECT MIN(id) FROM outbox WHERE entity_key = ${key} AND ${LIVE})`;
/** Statements that make the marks right after row NEW was inserted, or changed state or entity. */
const settle = `
      -- NEW live and older than its entity's head: the former head (the next live row) is not one.
      UPDATE outbox SET is_head = 0 WHERE NOT ${DEAD('NEW')} AND is_head = 1
        AND id = (SELECT MIN(id) FROM outbox WHERE entity_key = NEW.entity_key AND ${LIVE} AND id > NEW.id);
      -- NEW's own mark: flipped only when wrong.
      UPDATE outbox SET is_head = 1 - is_head WHERE id = NEW.id
        AND is_head = (${DEAD('NEW')} OR EXISTS (SELECT 1 FROM outbox p WHERE p.entity_key = NEW.entity_key AND p.id < NEW.id AND p.${LIVE}));`;

export const migration: Migration = {
  version: 5,
  name: 'outbox-head-mark',
  up: `
    ALTER TABLE outbox ADD COLUMN is_head INTEGER NOT NULL DEFAULT 0 CHECK (is_head IN (0, 1));
    UPDATE outbox SET is_head = 1 WHERE ${LIVE}
      AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_key = outbox.entity_key AND p.id < outbox.id AND p.${LIVE});

    DROP INDEX outbox_queued_order;
    DROP INDEX outbox_waiting_due;
    CREATE INDEX outbox_queued_heads ON outbox (deadline_at IS NULL, deadline_at, id) WHERE state = 'queued' AND is_head = 1;
    CREATE INDEX outbox_waiting_heads ON outbox (coalesce(next_attempt_at, 0)) WHERE state IN ('retry_wait', 'unknown') AND is_head = 1;
    CREATE INDEX outbox_live_by_kind ON outbox (kind, id) WHERE ${LIVE};

    CREATE TRIGGER outbox_head_on_insert AFTER INSERT ON outbox
    BEGIN${settle}
    END;

    -- Only a row leaving or entering the live states, or changing entity, can move a head.
    CREATE TRIGGER outbox_head_on_update AFTER UPDATE OF state, entity_key ON outbox
    WHEN (${DEAD('OLD')}) != (${DEAD('NEW')}) OR OLD.entity_key != NEW.entity_key
    BEGIN${settle}
      -- The entity NEW left, or died in: its oldest live row is the head.
      UPDATE outbox SET is_head = 1 WHERE id = ${headOf('OLD.entity_key')} AND is_head = 0;
    END;

    CREATE TRIGGER outbox_head_on_delete AFTER DELETE ON outbox WHEN OLD.is_head = 1
    BEGIN
      UPDATE outbox SET is_head = 1 WHERE id = ${headOf('OLD.entity_key')} AND is_head = 0;
    END;
  `,
};
