/**
 * undici (the HTTP client) is loaded on the first request, not with the engine: bundled as the app
 * bundles its main process, the engine service imports it only dynamically, so a cold start does
 * not evaluate its modules before the engine is up (bench/cold-start.bench.ts).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('undici', () => {
  it('is imported only dynamically by the bundled engine service', async () => {
    const r = await build({
      entryPoints: [path.resolve(import.meta.dirname, '../../../sync/service/index.ts')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
      outdir: 'out-test',
    });
    const imports = Object.values(r.metafile.outputs).flatMap((o) => o.imports);
    const undici = imports.filter((i) => i.path === 'undici').map((i) => i.kind);
    expect(undici.length).toBeGreaterThan(0);
    expect(new Set(undici)).toEqual(new Set(['dynamic-import']));
  });
});
