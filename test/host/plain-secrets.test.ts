/**
 * The browser host's key file: reported as plain storage (so sign-in asks for consent), owner-only
 * permissions, atomic replacement, kept across instances; a damaged file loses only the keys.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PlainFileSecretStore } from '../../host/plain-secrets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmpFile(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'zod-secrets-'));
  dirs.push(d);
  return path.join(d, 'nested', 'api-keys.json');
}

describe('plain-file secret store', () => {
  it('reports plain storage and keeps keys across instances in an owner-only file', () => {
    const file = tmpFile();
    const a = new PlainFileSecretStore(file);
    expect(a.storage).toBe('plain');
    expect(a.get('x')).toBeUndefined();
    expect(existsSync(file)).toBe(false); // nothing written until there is something to keep
    a.set('x', 'key-x');
    a.set('y', 'key-y');
    expect(a.get('x')).toBe('key-x');
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    }
    const b = new PlainFileSecretStore(file);
    expect(b.get('x')).toBe('key-x');
    b.delete('x');
    expect(new PlainFileSecretStore(file).get('x')).toBeUndefined();
    expect(new PlainFileSecretStore(file).get('y')).toBe('key-y');
    // No temporary file is left behind by the atomic replace.
    expect(readdirSync(path.dirname(file))).toEqual(['api-keys.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, keys: { y: 'key-y' } });
  });

  it('treats a damaged file as holding no keys, and writes a good one on the next set', () => {
    const file = tmpFile();
    new PlainFileSecretStore(file).set('x', 'k');
    writeFileSync(file, '{"version":1,"keys":');
    const s = new PlainFileSecretStore(file);
    expect(s.get('x')).toBeUndefined();
    s.set('z', 'kz');
    expect(new PlainFileSecretStore(file).get('z')).toBe('kz');
  });
});
