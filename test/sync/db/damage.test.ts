/**
 * Recovering a damaged account database (sync/db/damage.ts): every readable durable row is kept,
 * also past an unreadable page of the outbox itself; the damaged file is kept aside; a sound file
 * is left alone.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readdirSync, statSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import { checkDatabaseFile, isDamageError, openCheckedDb } from '../../../sync/db/damage.js';
import { backgroundCheck, markCleanClose } from '../../../sync/db/deferred-check.js';
import { openLocalDb, schemaVersion } from '../../../sync/db/open.js';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { tempDir } from '../engine/session-helpers.js';

const opts = { now: () => Date.UTC(2026, 10, 26, 12), logger: silentEngineLogger };

/** A database of `rows` queued outbox rows (big enough to span many pages) and two drafts, checkpointed and closed. */
function made(file: string, rows: number): void {
  const db = openLocalDb(file);
  db.prepare("INSERT INTO account (id, realm_url, email) VALUES (1, 'https://chat.example.com', 'hamlet@example.com')").run();
  const row = db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('update_settings', 1, ?, ?, 'queued', 1, 1)");
  for (let i = 0; i < rows; i++) row.run(`e${i}`, JSON.stringify({ n: i, pad: 'x'.repeat(300) }));
  db.prepare("INSERT INTO drafts (key, target, content, updated_at) VALUES ('a', '{}', 'one', 1), ('b', '{}', 'two', 1)").run();
  db.prepare("INSERT INTO engine_settings (name, value) VALUES ('backfill_depth', '300'), ('sync.pending_backfill', '{}')").run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function leafPagesOf(file: string, table: string): { pageSize: number; leaves: number[] } {
  const db = new Database(file, { readonly: true });
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const leaves = db.prepare<[string], number>("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path").pluck().all(table);
  db.close();
  return { pageSize, leaves };
}

function noise(file: string, page: number, pageSize: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
}

describe('recovering a damaged database', () => {
  it('a sound file opens as it is', () => {
    const dir = tempDir();
    const file = path.join(dir.dir, 'a.sqlite');
    made(file, 5);
    expect(checkDatabaseFile(file)).toBeUndefined();
    const { db, recovered } = openCheckedDb(file, opts);
    expect(recovered).toBeUndefined();
    db.close();
    expect(readdirSync(dir.dir).filter((f) => f.includes('damaged'))).toEqual([]);
    dir.cleanup();
  });

  it('an unreadable outbox page loses only its own rows; the rows after it are read one rowid at a time', () => {
    const dir = tempDir();
    const file = path.join(dir.dir, 'a.sqlite');
    made(file, 200);
    const { pageSize, leaves } = leafPagesOf(file, 'outbox');
    expect(leaves.length).toBeGreaterThan(4);
    const victim = leaves[Math.floor(leaves.length / 2)]!;
    noise(file, victim, pageSize);
    expect(checkDatabaseFile(file)).toBeDefined();

    const { db, recovered } = openCheckedDb(file, opts);
    expect(recovered).toBeDefined();
    const kept = db.prepare<[], number>('SELECT id FROM outbox ORDER BY id').pluck().all();
    // Rows before and after the damaged leaf are kept with their ids; those on it (one run of
    // ids, a leaf's worth) are gone.
    const lost = Array.from({ length: 200 }, (_, i) => i + 1).filter((id) => !kept.includes(id));
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThanOrEqual(Math.ceil(200 / (leaves.length - 1)) + 1);
    expect(lost.at(-1)! - lost[0]! + 1).toBe(lost.length);
    expect(kept[0]).toBe(1);
    expect(kept.at(-1)).toBe(200);
    expect(recovered!.queuedKept).toBe(kept.length);
    expect(recovered!.draftsKept).toBe(2);
    // The heads are marked again by the triggers: one live row per entity, each its own head.
    expect(db.prepare<[], number>('SELECT count(*) FROM outbox WHERE is_head = 1').pluck().get()).toBe(kept.length);
    // Settings about the cache are not copied (the cache starts empty); the others are.
    expect(db.prepare<[], string>('SELECT name FROM engine_settings ORDER BY name').pluck().all()).toEqual(['backfill_depth']);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    db.close();
    expect(existsSync(recovered!.keptAside)).toBe(true);
    expect(path.basename(recovered!.keptAside)).toBe('a.sqlite.damaged-2026-11-26T12-00-00-000Z');
    dir.cleanup();
  });

  it('a recovery interrupted before the fresh file took the name is finished; an incomplete one is dropped', () => {
    const dir = tempDir();
    const file = path.join(dir.dir, 'a.sqlite');
    // Complete, damaged file already aside: the fresh one takes the name.
    made(`${file}.rebuilding`, 3);
    const { db, recovered } = openCheckedDb(file, opts);
    expect(recovered).toBeUndefined();
    expect(db.prepare<[], number>('SELECT count(*) FROM outbox').pluck().get()).toBe(3);
    db.close();
    expect(existsSync(`${file}.rebuilding`)).toBe(false);
    // The damaged file still in place: the half-built one goes, and the recovery runs again.
    made(`${file}.rebuilding`, 1);
    noise(file, 1, 4096);
    const again = openCheckedDb(file, opts);
    expect(again.recovered?.queuedKept).toBe(0);
    again.db.close();
    expect(existsSync(`${file}.rebuilding`)).toBe(false);
    dir.cleanup();
  });

  it('damage is recognised through an error\'s causes', () => {
    const sqlite = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(isDamageError(new Error('applying failed', { cause: sqlite }))).toBe(true);
    expect(isDamageError(Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }))).toBe(true);
    expect(isDamageError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(false);
  });
});

describe('the check deferred by a clean close', () => {
  /** A damaged outbox leaf; with `sameStamp` the file's size and modification time stay as they were. */
  function damaged(file: string, sameStamp: boolean): void {
    const before = statSync(file);
    const { pageSize, leaves } = leafPagesOf(file, 'outbox');
    noise(file, leaves[Math.floor(leaves.length / 2)]!, pageSize);
    if (sameStamp) utimesSync(file, before.atime, new Date(Math.round(before.mtimeMs)));
  }

  it('a clean close defers the check once: the file opens unchecked, and the background check finds the damage', async () => {
    const dir = tempDir();
    const file = path.join(dir.dir, 'a.sqlite');
    made(file, 200);
    markCleanClose(file);
    damaged(file, true);
    const { db, recovered, checkLater } = openCheckedDb(file, opts);
    expect(recovered).toBeUndefined();
    expect(checkLater).toBe(true);
    // The mark is used up: a crash in this run leaves none, so the next open checks first.
    expect(existsSync(`${file}.clean`)).toBe(false);
    expect(await backgroundCheck(file, 5).result).toMatch(/\S/);
    db.close();
    const next = openCheckedDb(file, opts);
    expect(next.recovered).toBeDefined();
    expect(next.checkLater).toBeFalsy();
    next.db.close();
    dir.cleanup();
  });

  it('a sound file passes the background check; a file written after its clean close is checked at open', async () => {
    const dir = tempDir();
    const file = path.join(dir.dir, 'a.sqlite');
    made(file, 200);
    markCleanClose(file);
    const sound = openCheckedDb(file, opts);
    expect(sound.checkLater).toBe(true);
    expect(await backgroundCheck(file, 5).result).toBeUndefined();
    sound.db.close();
    markCleanClose(file);
    damaged(file, false);
    const { db, recovered, checkLater } = openCheckedDb(file, opts);
    expect(checkLater).toBeFalsy();
    expect(recovered).toBeDefined();
    db.close();
    dir.cleanup();
  });
});
