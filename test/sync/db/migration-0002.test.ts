/** 0002-outbox: from a version-1 database with data, adds the durable outbox and keeps everything. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { migrate, schemaVersion } from '../../../sync/db/open.js';

describe('migration 0002-outbox', () => {
  it('migrates a version-1 database with data to version 2', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 1);
    db.prepare("INSERT INTO engine_settings (name, value) VALUES ('backfill_depth', '500')").run();
    db.prepare("INSERT INTO messages (id, type, sender_id, json) VALUES (42, 'stream', 2, '{}')").run();
    migrate(db, MIGRATIONS, 2);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare('SELECT value FROM engine_settings').pluck().get()).toBe('500');
    expect(db.prepare('SELECT id FROM messages').pluck().all()).toEqual([42]);

    db.prepare(
      "INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('edit', 1, 'message:42', '{}', 'queued', 1, 1)",
    ).run();
    expect(db.prepare('SELECT base, attempts, history FROM outbox').get()).toEqual({ base: 'null', attempts: 0, history: '[]' });
    expect(() => db.prepare("UPDATE outbox SET state = 'lost_in_space'").run()).toThrow(/CHECK/);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(['outbox_live_by_entity', 'outbox_by_state']));
    expect(db.prepare('INSERT INTO outbox_temp_ids DEFAULT VALUES').run().lastInsertRowid).toBe(1);
    db.close();
  });
});
