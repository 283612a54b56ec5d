/**
 * How the main-process bundle treats the app's dependencies, in one place for the build
 * (electron.vite.config.ts) and the cold-start benchmark's child (bench/cold-start.bench.ts):
 * every `dependencies` entry stays external (installed next to the app) except these, which are
 * inlined. zod is inlined: loading its ~100 ES module files one by one cost about 50 ms of every
 * start, one bundled copy a fraction of that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const INLINED_DEPENDENCIES = ['zod'];

/** The dependencies the main bundle leaves external: package.json's, minus the inlined ones. */
export function externalDependencies(): string[] {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(pkg.dependencies).filter((d) => !INLINED_DEPENDENCIES.includes(d));
}
