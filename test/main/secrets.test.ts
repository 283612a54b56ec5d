/**
 * API keys at rest: sealed with safeStorage (nothing readable in keys.json), plain only where the
 * platform cannot encrypt (and then marked so), file mode 0600, atomic writes, a broken file kept.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { canEncrypt, SafeStorageSecretStore } from '../../main/secrets.js';
import { fake, safeStorage } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const KEY = 'abcdEFGH1234secretKEY';
let dir: string;
let file: string;
const logs: string[] = [];
const store = (platform: NodeJS.Platform = 'linux') => new SafeStorageSecretStore(file, safeStorage, platform, (l) => logs.push(l));

beforeEach(() => {
  fake.reset();
  logs.length = 0;
  dir = mkdtempSync(path.join(tmpdir(), 'zo-secrets-'));
  file = path.join(dir, 'keys.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('secret store with encryption', () => {
  it('seals keys with safeStorage: nothing plain in keys.json, and reads them back', () => {
    const s = store();
    expect(s.storage).toBe('encrypted');
    s.set('acct1', KEY);
    expect(safeStorage.encryptString).toHaveBeenCalledWith(KEY);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    const json = JSON.parse(text);
    expect(json.keys.acct1.storage).toBe('encrypted');
    expect(Buffer.from(json.keys.acct1.value, 'base64').subarray(0, 7).toString()).toBe('SEALED:');
    expect(store().get('acct1')).toBe(KEY);
    expect(safeStorage.decryptString).toHaveBeenCalled();
  });

  it('writes the file with mode 0600, atomically (no temporary file left)', () => {
    writeFileSync(file, JSON.stringify({ version: 1, keys: {} }), { mode: 0o644 });
    const s = store();
    s.set('a', KEY);
    s.set('b', 'other');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['keys.json']);
  });

  it('deletes a key', () => {
    const s = store();
    s.set('a', KEY);
    s.set('b', 'other');
    s.delete('a');
    expect(s.get('a')).toBeUndefined();
    expect(store().get('a')).toBeUndefined();
    expect(store().get('b')).toBe('other');
  });

  it('a key that no longer decrypts reads as missing (sign in again), with a log line', () => {
    writeFileSync(file, JSON.stringify({ version: 1, keys: { a: { storage: 'encrypted', value: Buffer.from('garbage').toString('base64') } } }));
    expect(store().get('a')).toBeUndefined();
    expect(logs.join('\n')).toMatch(/cannot be decrypted/);
  });

  it('a key stored plain earlier is sealed once encryption is available', () => {
    writeFileSync(file, JSON.stringify({ version: 1, keys: { a: { storage: 'plain', value: KEY } } }));
    expect(store().get('a')).toBe(KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(store().get('a')).toBe(KEY);
  });

  it('keeps a broken file aside instead of overwriting it', () => {
    writeFileSync(file, '{ not json');
    const s = store();
    expect(s.get('a')).toBeUndefined();
    expect(readdirSync(dir).some((f) => f.startsWith('keys.json.broken-'))).toBe(true);
    s.set('a', KEY);
    expect(store().get('a')).toBe(KEY);
  });
});

describe('secret store without encryption', () => {
  it('reports plain when safeStorage cannot encrypt, and marks plain entries', () => {
    fake.encryption.available = false;
    const s = store('darwin');
    expect(s.storage).toBe('plain');
    s.set('a', KEY);
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(JSON.parse(readFileSync(file, 'utf8')).keys.a).toEqual({ storage: 'plain', value: KEY });
    expect(store('darwin').get('a')).toBe(KEY);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('treats the Linux basic_text backend (a hard-coded password) as plain', () => {
    fake.encryption.backend = 'basic_text';
    expect(canEncrypt(safeStorage, 'linux')).toBe(false);
    expect(store('linux').storage).toBe('plain');
    // The backend question is Linux-only.
    expect(canEncrypt(safeStorage, 'win32')).toBe(true);
    fake.encryption.backend = 'kwallet6';
    expect(canEncrypt(safeStorage, 'linux')).toBe(true);
  });

  it('an encrypted entry cannot be read without encryption (and is not guessed at)', () => {
    store().set('a', KEY);
    fake.encryption.available = false;
    expect(store().get('a')).toBeUndefined();
  });
});
