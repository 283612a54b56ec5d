/** 0005-outbox-head-mark: from a version-4 database holding outbox rows, marks each entity's head, adds the heads and by-kind indexes, and keeps every row. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { migrate, schemaVersion } from '../../../sync/db/open.js';

const outboxIndexes = (db: Database.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' ORDER BY name").pluck().all();

describe('migration 0005-outbox-head-mark', () => {
  it('migrates a version-4 database with outbox rows to version 5, marking the oldest live row of each entity', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 4);
    const insert = db.prepare(
      `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, attempts, next_attempt_at, deadline_at, last_error, created_at, updated_at, history)
       VALUES (?, 1, ?, '{}', 'null', ?, 0, ?, NULL, NULL, 1, 1, '[]')`,
    );
    // conversation:1: a done row, then a waiting head, then two queued behind it.
    insert.run('message_send', 'conversation:1', 'done', null); // 1
    insert.run('message_send', 'conversation:1', 'retry_wait', 5_000); // 2: head
    insert.run('message_send', 'conversation:1', 'queued', null); // 3
    insert.run('message_send', 'conversation:1', 'queued', null); // 4
    insert.run('message_content_edit', 'message:42', 'queued', null); // 5: head
    insert.run('saved_snippet_edit', 'snippet:7', 'discarded', null); // 6: no live row
    insert.run('user_topic_set', 'user_topic:1:castle', 'failed', null); // 7: head (failed is live)
    insert.run('user_topic_set', 'user_topic:1:castle', 'queued', null); // 8
    const before = db.prepare('SELECT * FROM outbox ORDER BY id').all();

    migrate(db, MIGRATIONS, 5);

    expect(schemaVersion(db)).toBe(5);
    const after = db.prepare<[], Record<string, unknown>>('SELECT * FROM outbox ORDER BY id').all();
    expect(after.map(({ is_head: _mark, ...rest }) => rest)).toEqual(before);
    expect(db.prepare('SELECT id FROM outbox WHERE is_head = 1 ORDER BY id').pluck().all()).toEqual([2, 5, 7]);
    expect(outboxIndexes(db)).toEqual([
      'outbox_by_state', 'outbox_finished', 'outbox_live_by_entity', 'outbox_live_by_kind', 'outbox_queued_heads', 'outbox_waiting_heads',
    ]);
    // The partial indexes hold exactly the heads their WHERE names.
    expect(db.prepare("SELECT id FROM outbox INDEXED BY outbox_queued_heads WHERE state = 'queued' AND is_head = 1").pluck().all()).toEqual([5]);
    expect(db.prepare("SELECT id FROM outbox INDEXED BY outbox_waiting_heads WHERE state IN ('retry_wait', 'unknown') AND is_head = 1 AND coalesce(next_attempt_at, 0) <= 5000").pluck().all()).toEqual([2]);
    expect(db.prepare("SELECT id FROM outbox INDEXED BY outbox_live_by_kind WHERE state NOT IN ('done', 'discarded') AND kind = 'message_send'").pluck().all()).toEqual([2, 3, 4]);
    // And the triggers take over from here: the waiting head lands, the next send becomes the head.
    db.prepare("UPDATE outbox SET state = 'done' WHERE id = 2").run();
    expect(db.prepare('SELECT id FROM outbox WHERE is_head = 1 ORDER BY id').pluck().all()).toEqual([3, 5, 7]);
    expect(() => db.prepare('UPDATE outbox SET is_head = 2 WHERE id = 3').run()).toThrow(/CHECK/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
