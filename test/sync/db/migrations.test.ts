/** Migrations: each step from the version before it; the guard against a database from the future. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { DatabaseFromTheFutureError, migrate, openLocalDb, schemaVersion } from '../../../sync/db/open.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'zulip-db-'));
  dirs.push(d);
  return join(d, 'account.db');
};
/** The newest schema version (equal to the count once every numbered migration is present). */
const NEWEST = MIGRATIONS.at(-1)!.version;
const tables = (db: Database.Database) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];

describe('local database migrations', () => {
  it('versions are 1, 2, 3, ... with no gaps, each with a name', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    for (const m of MIGRATIONS) expect(m.name).toMatch(/^[a-z0-9-]+$/);
  });

  it('0001-initial: from an empty database creates the durable and cache tables at version 1', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 1);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(expect.arrayContaining(['account', 'event_queue', 'engine_settings', 'messages', 'users', 'channels', 'subscriptions', 'narrow_ranges', 'user_topics', 'saved_snippets', 'navigation_views', 'scheduled_messages', 'user_settings', 'user_groups', 'realm']));
    db.prepare("INSERT INTO messages (id, type, sender_id, json) VALUES (1, 'stream', 2, '{}')").run();
    db.prepare("INSERT INTO messages_fts (rowid, topic, body) VALUES (1, 'castle', 'the ghost walks')").run();
    expect(db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'ghost'").pluck().all()).toEqual([1]);
    db.close();
  });

  it('opens a file in WAL mode and reopens it without re-running migrations', () => {
    const file = tempFile();
    const a = openLocalDb(file);
    expect(a.pragma('journal_mode', { simple: true })).toBe('wal');
    a.prepare("INSERT INTO engine_settings (name, value) VALUES ('backfill_depth', '500')").run();
    a.close();
    const b = openLocalDb(file);
    expect(schemaVersion(b)).toBe(NEWEST);
    expect(b.prepare("SELECT value FROM engine_settings WHERE name = 'backfill_depth'").pluck().get()).toBe('500');
    b.close();
  });

  it('refuses a database from the future and leaves it untouched', () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.pragma(`user_version = ${NEWEST + 5}`);
    raw.exec('CREATE TABLE precious (x)');
    raw.close();
    expect(() => openLocalDb(file)).toThrow(DatabaseFromTheFutureError);
    const again = new Database(file);
    expect(schemaVersion(again)).toBe(NEWEST + 5);
    expect(tables(again)).toEqual(['precious']);
    again.close();
  });

  it('a failing migration rolls back to the version before it', () => {
    const db = new Database(':memory:');
    const broken = [...MIGRATIONS, { version: NEWEST + 1, name: 'broken', up: 'CREATE TABLE ok_table (x); SELECT * FROM no_such_table;' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(NEWEST);
    expect(tables(db)).not.toContain('ok_table');
    db.close();
  });
});

describe('flag bits', () => {
  it("round-trip in the server's order, with the derived wildcard_mentioned after the wildcards", async () => {
    const { bitsToFlags, flagsToBits } = await import('../../../sync/db/flags.js');
    const flags = ['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned', 'historical'];
    expect(bitsToFlags(flagsToBits(flags))).toEqual(flags);
    expect(bitsToFlags(flagsToBits(['topic_wildcard_mentioned', 'read']))).toEqual(['read', 'topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(flagsToBits(['no_such_flag'])).toBe(0);
  });
});
