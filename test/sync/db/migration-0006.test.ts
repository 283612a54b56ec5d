/**
 * 0006-topic-keys-unreads: from a version-4 database holding messages and topic preferences, every
 * message gets its topic key, the key index replaces the NOCASE one, preferences NOCASE kept
 * apart but the server treats as one topic merge (the newest wins), and the new tables exist.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { migrate, schemaVersion } from '../../../sync/db/open.js';

const indexes = (db: Database.Database, table: string) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all(table);

describe('migration 0006-topic-keys-unreads', () => {
  it('migrates a version-4 database with messages and topic preferences', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 4);
    const msg = db.prepare("INSERT INTO messages (id, type, channel_id, topic, dm_key, sender_id, flags, json) VALUES (?, ?, ?, ?, ?, 2, 0, '{}')");
    msg.run(1, 'stream', 5, 'Äpfel', null);
    msg.run(2, 'stream', 5, 'äpfel', null);
    msg.run(3, 'stream', 5, 'Lunch', null);
    msg.run(4, 'stream', 5, 'ß', null);
    msg.run(5, 'private', null, '', '2,3');
    const pref = db.prepare('INSERT INTO user_topics (channel_id, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?)');
    pref.run(5, 'ÄPFEL', 1, 100);
    pref.run(5, 'äpfel', 3, 200); // NOCASE keeps these apart; the server has one (the newer)
    pref.run(5, 'SS', 1, 50);
    const before = db.prepare('SELECT id, type, channel_id, topic, dm_key, flags, json FROM messages ORDER BY id').all();

    migrate(db, MIGRATIONS, 6);

    expect(schemaVersion(db)).toBe(6);
    expect(db.prepare('SELECT id, type, channel_id, topic, dm_key, flags, json FROM messages ORDER BY id').all()).toEqual(before);
    expect(db.prepare('SELECT topic_key FROM messages ORDER BY id').pluck().all()).toEqual(['äpfel', 'äpfel', 'lunch', 'ß', '']);
    expect(indexes(db, 'messages')).toContain('messages_by_topic_key');
    expect(indexes(db, 'messages')).not.toContain('messages_by_topic');
    expect(db.prepare('SELECT channel_id, topic_key, topic, visibility_policy, last_updated FROM user_topics ORDER BY topic_key').all()).toEqual([
      { channel_id: 5, topic_key: 'ss', topic: 'SS', visibility_policy: 1, last_updated: 50 },
      { channel_id: 5, topic_key: 'äpfel', topic: 'äpfel', visibility_policy: 3, last_updated: 200 },
    ]);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['server_unreads', 'server_starred', 'recent_dms', 'server_topics', 'server_topic_lists']));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
