import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two files at a time on these 2-core machines (vitest's default is one fewer than the cores):
    // most tests wait on a loopback server or a child process, so the second core is otherwise idle.
    maxWorkers: 2,
  },
});
