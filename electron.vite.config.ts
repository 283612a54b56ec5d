import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import solid from 'vite-plugin-solid';
import { INLINED_DEPENDENCIES } from './scripts/main-bundle.js';

// main/ and the preload are bundled for Node/Electron with dependencies left external (they are
// installed next to the app) except zod, inlined into main (scripts/main-bundle.ts); the renderer
// is a plain Solid web bundle served from out/renderer.
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: INLINED_DEPENDENCIES },
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'main/index.ts'),
          // The browser-mode host (no Electron): plain `node out/main/browser-host.js`.
          'browser-host': resolve(import.meta.dirname, 'host/browser/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'main/preload.ts') },
        // A sandboxed preload must be a single CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [solid()],
    build: {
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } },
      // Assets stay files: the CSP's img-src is 'self' (no data: URLs), the favicon included.
      assetsInlineLimit: 0,
    },
  },
});
