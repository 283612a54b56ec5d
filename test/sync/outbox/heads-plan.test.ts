/**
 * Runnable heads after migration 0005: SQLite walks partial indexes holding only heads (checked
 * with EXPLAIN QUERY PLAN, so a query edit cannot silently fall back to reading every live row, or
 * every row behind a head), the stored head mark stays right through any write (triggers), and the
 * answers equal those of the version-2 query (kept below as the reference) on random outboxes.
 */
import { describe, expect, it } from 'vitest';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { seededRandom, systemClock } from '../../../sync/base/seams.js';
import { KindRegistry } from '../../../sync/outbox/kinds.js';
import { ENTITY_HEAD_SQL, NEXT_WAKE_SQL, RUNNABLE_HEADS_SQL } from '../../../sync/db/queries/outbox.js';
import { OutboxStore } from '../../../sync/outbox/store.js';

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

function plan(db: LocalDb, sql: string, ...params: unknown[]): PlanRow[] {
  return db.prepare<unknown[], PlanRow>(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
}

/** The version-2 queries: correct, but they read every live row. */
const REFERENCE_HEADS = `SELECT o.id FROM outbox o
  WHERE o.id IN (SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key)
    AND (o.state = 'queued' OR (o.state IN ('retry_wait', 'unknown') AND coalesce(o.next_attempt_at, 0) <= ?))
  ORDER BY o.deadline_at IS NULL, o.deadline_at, o.id LIMIT ?`;
const REFERENCE_WAKE = `SELECT MIN(coalesce(next_attempt_at, 0)) FROM outbox
  WHERE state IN ('retry_wait', 'unknown')
    AND id IN (SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key)`;

const STATES = ['queued', 'queued', 'queued', 'sending', 'retry_wait', 'retry_wait', 'unknown', 'failed', 'conflict', 'verifying', 'done', 'discarded'] as const;

/** A small deterministic PRNG so a failure reproduces. */
const prng = seededRandom;

function fill(db: LocalDb, rows: number, entities: number, rand: () => number): void {
  const insert = db.prepare(
    `INSERT INTO outbox (kind, kind_version, entity_key, args, state, next_attempt_at, deadline_at, created_at, updated_at)
     VALUES ('k', 1, ?, '{}', ?, ?, ?, 1, 1)`,
  );
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const state = STATES[Math.floor(rand() * STATES.length)]!;
      const waits = state === 'retry_wait' || state === 'unknown';
      // Null next_attempt_at (a crash-recovered row) counts as due at 0; deadlines collide on purpose.
      const nextAttemptAt = waits && rand() < 0.8 ? Math.floor(rand() * 1000) : null;
      const deadlineAt = rand() < 0.3 ? Math.floor(rand() * 20) : null;
      insert.run(`e:${Math.floor(rand() * entities)}`, state, nextAttemptAt, deadlineAt);
    }
  })();
}

describe('runnable heads read only heads (the stored mark of migration 0005)', () => {
  it('the heads query walks outbox_queued_heads in order (no sort of the queued rows), reads only due waiting heads, and checks no row behind a head', () => {
    const db = openLocalDb(':memory:');
    const rows = plan(db, RUNNABLE_HEADS_SQL, 0, 64);
    const details = rows.map((r) => r.detail);
    expect(details).toContain('SCAN o USING INDEX outbox_queued_heads');
    expect(details).toContain('SEARCH o USING INDEX outbox_waiting_heads (<expr><?)');
    // No per-row head check: a row queued behind a head is not in either index, so it is never read.
    expect(details.some((d) => d.includes('outbox_live_by_entity') || d.includes('SUBQUERY'))).toBe(false);
    const sorts = rows.filter((r) => r.detail.startsWith('USE TEMP B-TREE'));
    // Only the due waiting heads may be sorted (by deadline); the queued arm streams in index order.
    expect(sorts).toHaveLength(1);
    const arm = rows.find((r) => r.id === sorts[0]!.parent);
    expect(arm && rows.filter((r) => r.parent === arm.id).map((r) => r.detail)).toContain('SEARCH o USING INDEX outbox_waiting_heads (<expr><?)');
    expect(details.some((d) => d.includes('outbox_by_state') || /^SCAN (outbox|o|p)$/.test(d))).toBe(false);
    db.close();
  });

  it('the next wake-up is the first entry of outbox_waiting_heads, and a head check one probe', () => {
    const db = openLocalDb(':memory:');
    const wake = plan(db, NEXT_WAKE_SQL).map((r) => r.detail);
    expect(wake).toEqual(['SCAN o USING INDEX outbox_waiting_heads']);
    const head = plan(db, ENTITY_HEAD_SQL, 'e:1').map((r) => r.detail);
    expect(head).toHaveLength(1);
    expect(head[0]).toMatch(/^SEARCH outbox USING (COVERING )?INDEX outbox_live_by_entity \(entity_key=\?\)$/);
    db.close();
  });

  it('without the index the queries fail loudly instead of scanning', () => {
    const db = openLocalDb(':memory:');
    db.exec('DROP INDEX outbox_queued_heads');
    expect(() => db.prepare(RUNNABLE_HEADS_SQL)).toThrow(/no such index/);
    db.exec('DROP INDEX outbox_waiting_heads');
    expect(() => db.prepare(NEXT_WAKE_SQL)).toThrow(/no such index/);
    db.close();
  });
});

/** What the mark must say: the oldest live row of each entity, computed the slow way. */
const REFERENCE_MARKS = `SELECT MIN(id) FROM outbox WHERE state NOT IN ('done', 'discarded') GROUP BY entity_key ORDER BY 1`;
const marked = (db: LocalDb) => db.prepare<[], number>('SELECT id FROM outbox WHERE is_head = 1 ORDER BY id').pluck().all();

describe('the head mark follows every write (triggers, whoever writes)', () => {
  it.each([1, 2, 3])('random inserts, state changes, entity changes and deletes (seed %i)', (seed) => {
    const db = openLocalDb(':memory:');
    const rand = prng(seed);
    const ids = () => db.prepare<[], number>('SELECT id FROM outbox').pluck().all();
    const pick = () => {
      const all = ids();
      return all[Math.floor(rand() * all.length)];
    };
    for (let step = 0; step < 400; step++) {
      const op = rand();
      const id = pick();
      if (op < 0.35 || id === undefined) {
        const state = STATES[Math.floor(rand() * STATES.length)]!;
        // Whatever mark the writer gives (right, wrong or none), the trigger makes it right.
        const mark = rand();
        db.prepare(`INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at${mark < 0.5 ? '' : ', is_head'}) VALUES ('k', 1, ?, '{}', ?, 1, 1${mark < 0.5 ? '' : ', ?'})`).run(
          `e:${Math.floor(rand() * 6)}`,
          state,
          ...(mark < 0.5 ? [] : [mark < 0.75 ? 0 : 1]),
        );
      } else if (op < 0.4) {
        // An insert with an explicit id older than the rows of its entity (not what the store does).
        const free = db.prepare<[], number>('SELECT MIN(id) - 1 FROM outbox').pluck().get();
        if (free !== undefined && free > 0) db.prepare("INSERT INTO outbox (id, kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES (?, 'k', 1, ?, '{}', 'queued', 1, 1)").run(free, `e:${Math.floor(rand() * 6)}`);
      } else if (op < 0.75) {
        db.prepare('UPDATE outbox SET state = ? WHERE id = ?').run(STATES[Math.floor(rand() * STATES.length)]!, id);
      } else if (op < 0.85) {
        // A temporary id resolved: the row moves to another entity (OutboxStore.landCreate).
        db.prepare('UPDATE outbox SET entity_key = ? WHERE id = ?').run(`e:${Math.floor(rand() * 6)}`, id);
      } else if (op < 0.95) {
        db.prepare('DELETE FROM outbox WHERE id = ?').run(id);
      } else {
        // Prune-like: many rows at once.
        db.prepare("DELETE FROM outbox WHERE state IN ('done', 'discarded') AND id % 2 = ?").run(step % 2);
      }
      expect(marked(db), `after step ${step}`).toEqual(db.prepare<[], number>(REFERENCE_MARKS).pluck().all());
    }
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('through the store: a head finishing hands over to the next row, a blocked head keeps every row behind it out', () => {
    const db = openLocalDb(':memory:');
    const insert = db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, next_attempt_at, created_at, updated_at) VALUES ('k', 1, ?, '{}', ?, ?, 1, 1)");
    insert.run('conversation:1', 'retry_wait', 5_000);
    for (let i = 0; i < 50; i++) insert.run('conversation:1', 'queued', null);
    insert.run('conversation:2', 'queued', null);
    const store = new OutboxStore(db, new KindRegistry(), systemClock);
    expect(store.runnableHeads(1_000).map((r) => r.id)).toEqual([52]);
    expect(store.runnableHeads(5_000).map((r) => r.id)).toEqual([1, 52]);
    expect(store.nextWakeAt()).toBe(5_000);
    store.discard(1);
    expect(store.runnableHeads(1_000).map((r) => r.id)).toEqual([2, 52]);
    expect(store.nextWakeAt()).toBeNull();
    expect(marked(db)).toEqual([2, 52]);
    db.close();
  });
});

describe('runnable heads answer as the version-2 query did', () => {
  it.each([
    { seed: 1, rows: 300, entities: 40 },
    { seed: 2, rows: 300, entities: 300 },
    { seed: 3, rows: 500, entities: 5 },
    { seed: 4, rows: 0, entities: 1 },
  ])('random outbox (seed $seed, $rows rows over $entities entities)', ({ seed, rows, entities }) => {
    const db = openLocalDb(':memory:');
    const rand = prng(seed);
    fill(db, rows, entities, rand);
    const store = new OutboxStore(db, new KindRegistry(), systemClock);
    const reference = db.prepare<[number, number], number>(REFERENCE_HEADS).pluck();
    for (let i = 0; i < 25; i++) {
      const now = Math.floor(rand() * 1100);
      const limit = i % 5 === 0 ? -1 : 1 + Math.floor(rand() * 20);
      expect(store.runnableHeads(now, limit === -1 ? undefined : limit).map((r) => r.id)).toEqual(reference.all(now, limit));
    }
    expect(store.nextWakeAt()).toEqual(db.prepare(REFERENCE_WAKE).pluck().get());
    // Move some rows on (heads finish, waiting rows become queued) and compare again.
    db.prepare("UPDATE outbox SET state = 'done' WHERE id % 3 = 0 AND state IN ('sending', 'failed')").run();
    db.prepare("UPDATE outbox SET state = 'queued', next_attempt_at = NULL WHERE id % 4 = 0 AND state = 'retry_wait'").run();
    expect(store.runnableHeads(500).map((r) => r.id)).toEqual(reference.all(500, -1));
    expect(store.nextWakeAt()).toEqual(db.prepare(REFERENCE_WAKE).pluck().get());
    db.close();
  });

  it('heads come back as plain rows (the sort column stays inside the query)', () => {
    const db = openLocalDb(':memory:');
    fill(db, 50, 10, prng(7));
    const [head] = new OutboxStore(db, new KindRegistry(), systemClock).runnableHeads(2000, 1);
    expect(head).toBeDefined();
    expect(Object.keys(head ?? {})).not.toContain('no_deadline');
    db.close();
  });
});
