/**
 * The network settings (common/network-settings.ts) on disk: `network.json` beside `accounts.json`,
 * written atomically (temporary file + rename). Missing or unreadable: the defaults (the system's
 * proxy, no extra certificates), so a damaged file never keeps the app from connecting.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_NETWORK, type NetworkSettings } from '../../common/network-settings.js';
import { networkSettingsSchema } from '../protocol/network.js';

export class NetworkFile {
  private current: NetworkSettings;
  private readonly file: string | undefined;

  constructor(dataDir: string) {
    this.file = dataDir === ':memory:' ? undefined : path.join(dataDir, 'network.json');
    this.current = this.read();
  }

  get(): NetworkSettings {
    return this.current;
  }

  set(next: NetworkSettings): NetworkSettings {
    const parsed = networkSettingsSchema.parse(next);
    if (this.file) {
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, JSON.stringify(parsed, null, 2), { mode: 0o600 });
      renameSync(tmp, this.file);
    }
    this.current = parsed;
    return parsed;
  }

  private read(): NetworkSettings {
    if (!this.file || !existsSync(this.file)) return DEFAULT_NETWORK;
    try {
      const parsed = networkSettingsSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : DEFAULT_NETWORK;
    } catch {
      return DEFAULT_NETWORK;
    }
  }
}
