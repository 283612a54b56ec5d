import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Test files that change what other files would see in the same process: module mocks, fake
 * timers or a set clock, stubbed globals or environment, process-wide handlers or dispatchers.
 * They run isolated (a fresh module graph each, vitest's default); every other file shares its
 * worker's modules with the files run before it (`isolate: false`), which spares re-importing the
 * server, the engine and zod for each of ~300 files (most of vitest's time on 2 cores otherwise).
 */
const SIDE_EFFECTS =
  /vi\.(mock|doMock|stubGlobal|stubEnv|resetModules|useFakeTimers)\b|setSystemTime|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|setGlobalDispatcher|process\.chdir|process\.on\(|globalThis\.\w+\s*=[^=]|defineProperty\(globalThis|(Date\.now|Math\.random)\s*=[^=]/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'e2e' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const root = import.meta.dirname;
const isolated = testFiles(path.join(root, 'test'))
  .filter((f) => SIDE_EFFECTS.test(readFileSync(f, 'utf8')))
  .map((f) => path.relative(root, f).split(path.sep).join('/'));

/** What both projects run with (a project given `extends: true` would add the root's `include` to its own). */
const common = { environment: 'node', testTimeout: 20_000, hookTimeout: 30_000 } as const;
const exclude = ['test/e2e/**', 'node_modules/**'];

export default defineConfig({
  test: {
    // Two files at a time on these 2-core machines (vitest's default is one fewer than the cores):
    // most tests wait on a loopback server or a child process, so the second core is otherwise idle.
    maxWorkers: 2,
    projects: [
      { test: { ...common, name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...isolated], isolate: false } },
      { test: { ...common, name: 'isolated', include: isolated, exclude } },
    ],
  },
});
