/**
 * Shared by the installer tests: the repo root, the electron-builder configuration loaded through
 * electron-builder's own loader (the code `npm run dist` runs), and small readers for target lists.
 */
import { join } from 'node:path';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'electron-builder';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CONFIG_FILE = 'electron-builder.yml';

/** electron-builder.yml as electron-builder sees it: parsed, merged with its defaults. */
export function loadConfig(): Promise<Configuration> {
  return getConfig(ROOT, join(ROOT, CONFIG_FILE), null);
}

/** Target names of a platform section, whichever of the schema's forms (string, object, list). */
export function targetNames(target: unknown): string[] {
  const one = (t: unknown): string[] => {
    if (typeof t === 'string') return [t];
    if (t !== null && typeof t === 'object' && 'target' in t && typeof t.target === 'string') return [t.target];
    return [];
  };
  return Array.isArray(target) ? target.flatMap(one) : one(target);
}

/** The patterns of `files` after electron-builder's loader normalised it to file sets. */
export function filePatterns(files: unknown): string[] {
  const list: unknown[] = Array.isArray(files) ? files : [files];
  return list.flatMap((f): string[] => {
    if (typeof f === 'string') return [f];
    if (f !== null && typeof f === 'object' && 'filter' in f) return stringList(f.filter);
    return [];
  });
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** A deep copy to break on purpose without touching the loaded original. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
