/**
 * How the main-process bundle treats the app's dependencies, in one place for the build
 * (electron.vite.config.ts) and the cold-start benchmark's child (bench/cold-start.bench.ts):
 * every `dependencies` entry stays external (installed next to the app) except these, which are
 * inlined. zod is inlined: loading its ~100 ES module files one by one cost about 50 ms of every
 * start, one bundled copy a fraction of that (and only the parts the app uses: every module imports
 * it as a namespace, `import * as z from 'zod'`, which the bundler can tree-shake, where the `{ z }`
 * object drags in all 50 of zod's translated locales, 550 KB, about 17 ms to compile at each start).
 * diff is inlined for the same reason: its ES modules cost about 9 ms of each start, for the one
 * function the edit history uses; node-diff3 is one small file, inlined with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const INLINED_DEPENDENCIES = ['zod', 'diff', 'node-diff3'];

/** The dependencies the main bundle leaves external: package.json's, minus the inlined ones. */
export function externalDependencies(): string[] {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(pkg.dependencies).filter((d) => !INLINED_DEPENDENCIES.includes(d));
}
