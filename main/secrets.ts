/**
 * API keys at rest, for the engine service's `SecretStore` port: `userData/keys.json`, one entry per
 * account id.
 *
 * Encrypted (`storage: 'encrypted'`): the value is base64 of `safeStorage.encryptString(key)`, i.e.
 * sealed by the OS keychain (macOS Keychain, Windows DPAPI, libsecret/kwallet on Linux).
 * Plain (`storage: 'plain'`): when `safeStorage` offers no encryption, or on Linux when its backend
 * is `basic_text` (a hard-coded password: obfuscation, not encryption). Keys are then stored as
 * plain text with the marker `"storage": "plain"`, and only after the user agreed: the service
 * refuses a sign-in with PLAIN_STORAGE_CONSENT_REQUIRED until the UI asks (sync/service).
 *
 * An entry written in plain mode is re-sealed the next time it is read on a system that can
 * encrypt. An encrypted entry that cannot be decrypted any more (keychain reset, another machine)
 * reads as missing: the user signs in again. The file is written atomically (temporary file +
 * rename) with mode 0600; a file that does not parse is kept aside, never overwritten silently.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import * as z from 'zod';
import type { SecretStore } from '../sync/service/index.js';

/** The part of Electron's `safeStorage` we use (injectable for tests). */
export type SafeStorageLike = Pick<typeof safeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

const entrySchema = z.object({ storage: z.enum(['encrypted', 'plain']), value: z.string() });
const fileSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), entrySchema) });
type KeysFile = z.output<typeof fileSchema>;
type Entry = z.output<typeof entrySchema>;

/** Whether this system can really encrypt; call after `app` is ready (Linux decides then). */
export function canEncrypt(safe: SafeStorageLike, platform: NodeJS.Platform = process.platform): boolean {
  if (!safe.isEncryptionAvailable()) return false;
  return platform !== 'linux' || safe.getSelectedStorageBackend() !== 'basic_text';
}

export class SafeStorageSecretStore implements SecretStore {
  readonly storage: 'encrypted' | 'plain';
  private keys: Record<string, Entry>;

  constructor(
    private readonly file: string,
    private readonly safe: SafeStorageLike = safeStorage,
    platform: NodeJS.Platform = process.platform,
    private readonly log: (line: string) => void = (line) => console.warn(line),
  ) {
    this.storage = canEncrypt(safe, platform) ? 'encrypted' : 'plain';
    this.keys = this.load().keys;
  }

  get(accountId: string): string | undefined {
    const entry = this.keys[accountId];
    if (!entry) return undefined;
    if (entry.storage === 'plain') {
      if (this.storage === 'encrypted') this.set(accountId, entry.value); // seal it now that we can
      return entry.value;
    }
    if (this.storage !== 'encrypted') return undefined;
    try {
      return this.safe.decryptString(Buffer.from(entry.value, 'base64'));
    } catch (e) {
      this.log(`the stored key of account ${accountId} cannot be decrypted: ${String(e)}`);
      return undefined;
    }
  }

  set(accountId: string, apiKey: string): void {
    const entry: Entry =
      this.storage === 'encrypted'
        ? { storage: 'encrypted', value: this.safe.encryptString(apiKey).toString('base64') }
        : { storage: 'plain', value: apiKey };
    this.save({ ...this.keys, [accountId]: entry });
  }

  delete(accountId: string): void {
    if (!(accountId in this.keys)) return;
    const next = { ...this.keys };
    delete next[accountId];
    this.save(next);
  }

  private load(): KeysFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return { version: 1, keys: {} };
    }
    try {
      const r = fileSchema.safeParse(JSON.parse(text));
      if (r.success) return r.data;
    } catch {
      // not JSON: kept aside below
    }
    const aside = `${this.file}.broken-${Date.now()}`;
    this.log(`${this.file} is unreadable; kept as ${aside}`);
    try {
      renameSync(this.file, aside);
    } catch (e) {
      this.log(`could not keep ${this.file} aside: ${String(e)}`);
    }
    return { version: 1, keys: {} };
  }

  private save(keys: Record<string, Entry>): void {
    const body: KeysFile = { version: 1, keys };
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(body, null, 2), { mode: 0o600, flush: true });
      renameSync(tmp, this.file);
      // A file created by an older build (or by hand) may have looser permissions.
      chmodSync(this.file, 0o600);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    this.keys = keys;
  }
}
