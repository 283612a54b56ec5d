/**
 * The renderer's folders keep their order: the shared layers (core < kit < data < shared, router)
 * import only layers below them, and the feature folders import the layers and never one another
 * in a cycle (a feature that imports another is not imported back by it, directly or around).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..', '..', 'renderer', 'src');
/** Each layer, with what it may import besides itself. */
const LAYERS: Record<string, readonly string[]> = {
  core: [],
  kit: ['core'],
  data: ['core', 'kit'],
  router: ['core', 'kit', 'data'],
  shared: ['core', 'kit', 'data', 'router'],
};

/** Folder → the other folders its files import (relative imports, CSS included). */
function folderImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const folderOf = (file: string) => {
    const parts = path.relative(SRC, file).split(path.sep);
    return parts.length > 1 ? (parts[0] ?? null) : null;
  };
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) {
        const from = folderOf(p);
        if (from === null) continue;
        for (const m of readFileSync(p, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
          const target = path.resolve(path.dirname(p), m[1] ?? '');
          if (!target.startsWith(SRC + path.sep)) continue;
          const to = folderOf(target);
          if (to === null || to === from) continue;
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from)?.add(to);
        }
      }
    }
  };
  walk(SRC);
  return edges;
}

describe('renderer folders', () => {
  const edges = folderImports();

  it('a shared layer imports only the layers below it', () => {
    const wrong: string[] = [];
    for (const [layer, allowed] of Object.entries(LAYERS)) {
      for (const to of edges.get(layer) ?? []) if (!allowed.includes(to)) wrong.push(`${layer} -> ${to}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no feature folder imports one that imports it back (no cycle among features)', () => {
    const isFeature = (f: string) => !(f in LAYERS);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, trail: string[]) => {
      state.set(f, 'open');
      for (const to of edges.get(f) ?? []) {
        if (!isFeature(to)) continue;
        if (state.get(to) === 'open') cycles.push([...trail.slice(trail.indexOf(to)), to].join(' -> '));
        else if (!state.has(to)) visit(to, [...trail, to]);
      }
      state.set(f, 'done');
    };
    for (const f of edges.keys()) if (isFeature(f) && !state.has(f)) visit(f, [f]);
    expect(cycles).toEqual([]);
    // The check sees the folders at all: the shell shows the others.
    expect([...(edges.get('shell') ?? [])].length).toBeGreaterThan(3);
  });
});
