/** Types of scripts/electron-native.mjs, for the tests. */
import type { spawnSync } from 'node:child_process';
export function electronVersion(root: string): string;
export function cachedBindingPath(root: string, version: string, arch?: string): string;
export function nodeGypArgs(version: string, arch?: string): string[];
export function nodeGypScript(env?: NodeJS.ProcessEnv, execPath?: string): string | undefined;
export function ensureElectronSqlite(
  root: string,
  opts?: { version?: string; run?: typeof spawnSync; log?: (line: string) => void },
): { path: string; error?: undefined } | { path?: undefined; error: string };
