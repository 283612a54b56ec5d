/**
 * API keys in a plain JSON file, for a host with no OS keychain (the browser-mode host). It reports
 * `storage: 'plain'`, so the engine service refuses a sign-in until the user has agreed to keep the
 * key unencrypted. The file is readable by its owner only (0600, in a 0700 directory) and replaced
 * atomically (temporary file + rename), so a crash never leaves half a file.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { SecretStore } from '../sync/service/ports.js';

const fileSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string()) });

export class PlainFileSecretStore implements SecretStore {
  readonly storage = 'plain' as const;
  private readonly keys: Map<string, string>;

  constructor(private readonly file: string) {
    this.keys = new Map(Object.entries(load(file)));
  }

  get(accountId: string): string | undefined {
    return this.keys.get(accountId);
  }

  set(accountId: string, apiKey: string): void {
    this.keys.set(accountId, apiKey);
    this.save();
  }

  delete(accountId: string): void {
    if (this.keys.delete(accountId)) this.save();
  }

  private save(): void {
    const dir = path.dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const body = JSON.stringify({ version: 1, keys: Object.fromEntries(this.keys) });
    try {
      writeFileSync(tmp, body, { mode: 0o600 });
      // The mode above applies only when the file is created; a stale temporary file keeps its own.
      chmodSync(tmp, 0o600);
      renameSync(tmp, this.file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
}

function load(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'code' in e && e.code === 'ENOENT') return {};
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = fileSchema.safeParse(json);
  // An unreadable file loses only the keys: the accounts stay listed and ask to sign in again.
  return parsed.success ? parsed.data.keys : {};
}
