/**
 * The accounts list on disk: a change is written atomically; setting the account that is already
 * the open one writes nothing (every start does it, and a write and a rename are ~4 ms of a start).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountsList } from '../../../sync/service/accounts-file.js';
import { tempDir } from '../engine/session-helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
/** A data directory of its own per test. */
function dataDir(): string {
  const d = path.join(tmp.dir, String(n++));
  mkdirSync(d);
  return d;
}

const account = { id: 'a1', realm_url: 'https://chat.example.com', email: 'hamlet@example.com', kind: 'server' as const };
/** The file's inode: a write replaces the file (temporary file + rename), so a new inode. */
const inode = (dir: string) => statSync(path.join(dir, 'accounts.json')).ino;

describe('AccountsList', () => {
  it('setting the open account again writes nothing; another account, or none, is written', () => {
    const dir = dataDir();
    const list = new AccountsList(dir);
    list.upsert(account);
    list.setActive('a1');
    const written = inode(dir);

    // A new start: the list read back, the same account shown.
    const again = new AccountsList(dir);
    expect(again.active).toBe('a1');
    again.setActive('a1');
    expect(inode(dir)).toBe(written);

    again.setActive(null);
    expect(inode(dir)).not.toBe(written);
    expect(new AccountsList(dir).active).toBeNull();
  });

  it('a missing file is written on the first setActive, even to none', () => {
    const dir = dataDir();
    new AccountsList(dir).setActive(null);
    expect(JSON.parse(readFileSync(path.join(dir, 'accounts.json'), 'utf8'))).toMatchObject({ version: 1, accounts: [], active: null });
  });

  it('a broken file is kept aside and the list starts empty; the next setActive writes a good one', () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, 'accounts.json'), '{"version": 1, "accounts": [');
    const list = new AccountsList(dir);
    expect(list.accounts).toEqual([]);
    list.setActive(null);
    expect(new AccountsList(dir).accounts).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(dir, 'accounts.json'), 'utf8'))).toMatchObject({ version: 1, active: null });
  });
});
