/** 0003-outbox-heads: from a version-2 database holding outbox rows, adds the heads indexes and keeps every row. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { migrate, schemaVersion } from '../../../sync/db/open.js';

const outboxIndexes = (db: Database.Database) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' ORDER BY name").pluck().all();

describe('migration 0003-outbox-heads', () => {
  it('migrates a version-2 database with outbox rows to version 3', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 2);
    expect(outboxIndexes(db)).not.toContain('outbox_queued_order');
    const insert = db.prepare(
      `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, attempts, next_attempt_at, deadline_at, last_error, created_at, updated_at, history)
       VALUES (?, 1, ?, ?, 'null', ?, ?, ?, ?, ?, ?, ?, '[]')`,
    );
    insert.run('message_content_edit', 'message:42', '{"message_id":42,"content":"hi"}', 'queued', 0, null, 9_000, null, 1, 1);
    insert.run('user_topic_set', 'user_topic:1:castle', '{"stream_id":1}', 'retry_wait', 2, 5_000, null, '{"kind":"network"}', 2, 3);
    insert.run('saved_snippet_edit', 'snippet:7', '{"saved_snippet_id":7}', 'done', 1, null, null, 'null', 4, 5);
    db.prepare('INSERT INTO outbox_temp_ids (server_id) VALUES (?)').run('77');
    const before = db.prepare('SELECT * FROM outbox ORDER BY id').all();

    migrate(db, MIGRATIONS, 3);

    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare('SELECT * FROM outbox ORDER BY id').all()).toEqual(before);
    expect(db.prepare('SELECT n, server_id FROM outbox_temp_ids').all()).toEqual([{ n: 1, server_id: '77' }]);
    expect(outboxIndexes(db)).toEqual(['outbox_by_state', 'outbox_finished', 'outbox_live_by_entity', 'outbox_queued_order', 'outbox_waiting_due']);
    // The partial indexes hold exactly the rows their WHERE names (and SQLite agrees they are sound).
    expect(db.prepare("SELECT id FROM outbox INDEXED BY outbox_queued_order WHERE state = 'queued'").pluck().all()).toEqual([1]);
    expect(db.prepare("SELECT id FROM outbox INDEXED BY outbox_waiting_due WHERE state IN ('retry_wait', 'unknown') AND coalesce(next_attempt_at, 0) <= 5000").pluck().all()).toEqual([2]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
