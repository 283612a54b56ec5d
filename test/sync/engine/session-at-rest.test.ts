/**
 * An account's data at rest: the directories are the user's alone (0700), the database, its -wal
 * and -shm and the cached uploads too (0600), also when an older app left them readable; and the
 * write-ahead log reaches the database file when the session's writes pause and when it closes
 * (SQLite would copy it back only at 1000 pages or when the last connection closes).
 */
import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { accountFileName, uploadsDirOf, type AccountSession } from '../../../sync/engine/session.js';
import { AccountsList } from '../../../sync/service/accounts-file.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

const posix = process.platform !== 'win32';
const mode = (file: string) => statSync(file).mode & 0o777;

let t: TestServer;
const tmp = tempDir();
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  tmp.cleanup();
});

/** What the database file alone holds (a copy without its -wal: what checkpoints wrote there). */
function inMainFile(dbFile: string, copyName: string, table: 'messages' | 'drafts', column: 'id' | 'content'): unknown[] {
  const copy = path.join(tmp.dir, copyName);
  copyFileSync(dbFile, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    return hasTable ? db.prepare(`SELECT ${column} AS v FROM ${table}`).all().map((r) => (r as { v: unknown }).v) : [];
  } finally {
    db.close();
  }
}

async function postToVerona(content: string): Promise<number> {
  const sent = await t.as('iago').post('/messages', { type: 'stream', to: 'Verona', topic: 'at rest', content });
  return sent.json.id as number;
}

describe.runIf(posix)('account files are the user\'s alone', () => {
  it('a new data directory is 0700; the database, -wal, -shm, the uploads cache 0600; accounts.json 0600', async () => {
    const dataDir = path.join(tmp.dir, 'fresh', 'accounts');
    const session = openSession(t, dataDir);
    try {
      session.start();
      await until(() => session.online, 15_000, 'live');
      const file = path.join(dataDir, accountFileName(t.url, 'hamlet@example.com'));
      expect(mode(dataDir)).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, mode(f).toString(8)]).toEqual([f, '600']);
      const uploads = uploadsDirOf({ dataDir, realmUrl: t.url, email: 'hamlet@example.com' })!;
      // What the cache writes (its own module creates it the same way when an image is kept).
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))], { type: 'image/png' }), 'dot.png');
      const auth = `Basic ${Buffer.from(`iago@example.com:${t.server.apiKey('iago@example.com')}`).toString('base64')}`;
      const url = ((await (await fetch(`${t.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth }, body: fd })).json()) as { url: string }).url;
      await postToVerona(`[dot.png](${url})`);
      expect(await session.uploads.get(url)).toMatchObject({ kind: 'image' });
      expect(mode(uploads)).toBe(0o700);
      const kept = readdirSync(uploads);
      expect(kept.length).toBeGreaterThan(0);
      for (const f of kept) expect(mode(path.join(uploads, f))).toBe(0o600);
    } finally {
      await session.close();
    }
    const list = new AccountsList(path.join(tmp.dir, 'fresh', 'other'));
    list.setActive(null);
    expect(mode(path.join(tmp.dir, 'fresh', 'other'))).toBe(0o700);
    expect(mode(path.join(tmp.dir, 'fresh', 'other', 'accounts.json'))).toBe(0o600);
  });

  it('files and the directory an older app left readable are narrowed when opened', () => {
    const dataDir = path.join(tmp.dir, 'older');
    const file = path.join(dataDir, 'old.sqlite');
    mkdirSync(dataDir);
    openLocalDb(file).close();
    chmodSync(dataDir, 0o755);
    chmodSync(file, 0o644);
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o644);
    const session = openSession(t, dataDir, 'hamlet', { fileName: 'old.sqlite' });
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
    } finally {
      void session.close();
    }
    // accounts.json, which a start no longer rewrites when nothing changed in it.
    const list = new AccountsList(dataDir);
    list.setActive('a1');
    chmodSync(path.join(dataDir, 'accounts.json'), 0o644);
    new AccountsList(dataDir).setActive('a1');
    expect(mode(path.join(dataDir, 'accounts.json'))).toBe(0o600);
  });
});

describe('checkpoints', () => {
  let session: AccountSession;
  let dbFile: string;
  beforeAll(async () => {
    const dataDir = path.join(tmp.dir, 'checkpoints');
    session = openSession(t, dataDir);
    dbFile = path.join(dataDir, accountFileName(t.url, 'hamlet@example.com'));
    session.start();
    await until(() => session.online, 15_000, 'live');
  });

  it('a message stored while the session runs reaches the database file once writes pause, not only in -wal', async () => {
    const id = await postToVerona('kept in the file');
    const stored = () => session.db.prepare('SELECT 1 FROM messages WHERE id = ?').get(id) !== undefined;
    await until(stored, 10_000, 'the message to be stored');
    // The session's looks come every 10 s (200 ms with the tests' shortened sleeps).
    await until(() => inMainFile(dbFile, 'idle-copy.sqlite', 'messages', 'id').includes(id), 10_000, 'the message in the database file');
  });

  it('closing checkpoints even while another connection keeps the file open (SQLite would leave it to that one)', async () => {
    await session.stop();
    session.drafts.save({ type: 'channel', channel_id: 1, topic: 'at rest' }, 'typed just before the close');
    // A connection that has read holds the file (another tool, a sign-out check): the close is not the last one.
    const other = new Database(dbFile, { readonly: true });
    other.prepare('SELECT count(*) FROM sqlite_master').get();
    try {
      await session.close();
      expect(existsSync(`${dbFile}-wal`)).toBe(true);
      expect(inMainFile(dbFile, 'close-copy.sqlite', 'drafts', 'content')).toContain('typed just before the close');
    } finally {
      other.close();
    }
  });
});
