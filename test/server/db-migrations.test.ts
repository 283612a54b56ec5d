/**
 * The server database's upgrades (server/db/migrations.ts): a file from an older server opens,
 * keeps its rows, and ends with exactly the schema a new file gets; a newer file is refused.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../server/db/migrations.js';
import { openDb } from '../../server/db/open.js';
import { SCHEMA_VERSION } from '../../server/db/tables/index.js';

const dir = mkdtempSync(join(tmpdir(), 'server-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const V1_SCHEMA = readFileSync(new URL('./fixtures/server-schema-v1.sql', import.meta.url), 'utf8');

/** Every table's columns (name, type, not null, default, pk) and every index's columns, by name. */
function shape(db: Database.Database) {
  const objects = db.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts_%' ORDER BY name").all() as Array<{ type: string; name: string; tbl_name: string }>;
  return objects.map((o) =>
    o.type === 'table'
      ? { table: o.name, columns: db.prepare(`PRAGMA table_xinfo("${o.name}")`).all() }
      : { index: o.name, on: o.tbl_name, columns: db.prepare(`PRAGMA index_xinfo("${o.name}")`).all() },
  );
}

function v1File(name: string): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.exec(V1_SCHEMA);
  db.pragma('user_version = 1');
  db.prepare("INSERT INTO users (email, delivery_email, full_name, role, api_key, date_joined) VALUES ('old@example.com', 'old@example.com', 'Old', 400, 'k', 0)").run();
  const msg = db.prepare("INSERT INTO messages (type, channel_id, topic, recipient_id, sender_id, content, rendered_content, date_sent) VALUES ('stream', 1, ?, 1, 1, 'x', 'x', 0)");
  for (const topic of ['Äpfel', 'äpfel', 'castle']) msg.run(topic);
  // Version 1 compared topics with NOCASE (ASCII only), so these were two preferences.
  const pref = db.prepare('INSERT INTO user_topics (user_id, channel_id, topic, visibility_policy, last_updated) VALUES (1, 1, ?, ?, ?)');
  pref.run('äpfel', 1, 10);
  pref.run('ÄPFEL', 3, 20);
  db.close();
  return path;
}

describe('server database migrations', () => {
  it('one step per version: SCHEMA_VERSION is the number of steps + 1', () => {
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length + 1);
  });

  it('a version 1 file upgrades to the current version, keeps its rows, and matches a fresh schema', () => {
    const db = openDb(v1File('v1.db'));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT full_name FROM users').pluck().all()).toEqual(['Old']);
      // 2 → 3: every message gets its topic key; preferences that are now one topic keep the newest.
      expect(db.prepare('SELECT topic, topic_key FROM messages ORDER BY id').all()).toEqual([
        { topic: 'Äpfel', topic_key: 'äpfel' },
        { topic: 'äpfel', topic_key: 'äpfel' },
        { topic: 'castle', topic_key: 'castle' },
      ]);
      expect(db.prepare('SELECT topic, topic_key, visibility_policy FROM user_topics').all()).toEqual([{ topic: 'ÄPFEL', topic_key: 'äpfel', visibility_policy: 3 }]);
      const fresh = openDb(undefined);
      expect(shape(db)).toEqual(shape(fresh));
      fresh.close();
    } finally {
      db.close();
    }
  });

  it('scheduled message ids are never reused after a delete (upgraded and fresh files alike)', () => {
    for (const db of [openDb(v1File('ids.db')), openDb(undefined)]) {
      const ins = db.prepare("INSERT INTO scheduled_messages (sender_id, type, recipient, content, rendered_content, scheduled_delivery_timestamp) VALUES (1, 'stream', '1', 'x', 'x', 1)");
      const first = Number(ins.run().lastInsertRowid);
      db.prepare('DELETE FROM scheduled_messages WHERE id = ?').run(first);
      expect(Number(ins.run().lastInsertRowid)).toBeGreaterThan(first);
      db.close();
    }
  });

  it('reopening an upgraded file changes nothing', () => {
    const path = v1File('twice.db');
    openDb(path).close();
    const db = openDb(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('a file from a newer server is refused, and left as it was', () => {
    const path = join(dir, 'future.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDb(path)).toThrow(/schema version/);
    const again = new Database(path);
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    again.close();
  });
});
