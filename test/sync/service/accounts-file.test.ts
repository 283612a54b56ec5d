/**
 * The accounts list on disk: a change is written atomically; setting the account that is already
 * the open one writes nothing (every start does it, and a write and a rename are ~4 ms of a start).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountsList } from '../../../sync/service/accounts-file.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'accounts-file-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

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
