/**
 * The architecture guide's import boundaries, enforced on the resolved target of every import:
 *   common/       the dependency-free leaf (topic keys, flag names, search terms, ...): only
 *                 common/ itself, no package, no node builtin; every other zone may import it
 *   sync/         never electron, solid or the DOM; never main/, renderer/, server/; inside it
 *                 the layers import only downward (SYNC_LAYERS): base < api < protocol < db, uploads
 *                 < outbox < engine < service
 *   sync/api/     a reusable library: relative imports stay inside sync/api/ (and common/)
 *   sync/protocol environment-neutral: only sync/protocol/, common/ and zod
 *   renderer/     only renderer/, sync/protocol/, common/ and browser-safe packages; and `import
 *                 type` of sync/outbox/registry.ts alone (the queued commands' types, declared with
 *                 their kinds: erased by the bundler, so nothing of the engine reaches the page)
 *   server/       the client's independent counterpart: nothing from sync/, main/, renderer/
 *   main/         never renderer/ or server/ (the sandbox comes through host/)
 *   host/         Node wiring shared by both hosts (browser-mode server, sandbox launcher):
 *                 sync/ and server/, never electron, renderer/ or main/
 * common/ is in both tsconfig projects, so it also type-checks without DOM and without Node types.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE_BUILTINS = new Set(builtinModules);
const isNodeBuiltin = (s) => s.startsWith('node:') || NODE_BUILTINS.has(s.split('/')[0]);
const pkgName = (s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]);

/** Zone of a repo-relative posix path: the longest matching prefix. */
function zoneOf(rel) {
  for (const z of ['common/', 'sync/api/', 'sync/protocol/', 'sync/', 'renderer/', 'server/', 'main/', 'host/']) {
    if (rel.startsWith(z)) return z;
  }
  return undefined;
}

/**
 * The layers of sync/, lowest first. A file may import its own layer and the ones below it, never
 * one above (a layer of the same rank but another folder is not below either).
 */
export const SYNC_LAYERS = [['sync/base/'], ['sync/api/'], ['sync/protocol/'], ['sync/db/', 'sync/uploads/'], ['sync/outbox/'], ['sync/engine/'], ['sync/service/']];
const layerOf = (rel) => {
  for (let rank = 0; rank < SYNC_LAYERS.length; rank++) {
    const dir = SYNC_LAYERS[rank].find((d) => rel.startsWith(d));
    if (dir) return { rank, dir };
  }
  return undefined;
};
/** May a file in sync/ at `from` import `to` (both repo-relative)? */
function syncImportAllowed(from, to) {
  if (!to.startsWith('sync/')) return false;
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a || !b) return false;
  return b.rank < a.rank || b.dir === a.dir;
}

const isCommon = (t) => t.startsWith('common/');

/** The one engine module the renderer may import types from (`import type` only). */
const RENDERER_TYPE_ONLY = 'sync/outbox/registry.js';

const RULES = {
  'common/': {
    relative: (t) => isCommon(t),
    bare: () => false,
    why: 'common/ is the dependency-free leaf every side may import: it imports only common/ (no package, no node builtin)',
  },
  'sync/api/': {
    relative: (t) => t.startsWith('sync/api/') || isCommon(t),
    bare: (s) => ['zod', 'undici'].includes(pkgName(s)) || isNodeBuiltin(s),
    why: 'sync/api is a standalone library: it may import only sync/api/, common/, zod, undici and node builtins',
  },
  'sync/protocol/': {
    relative: (t) => t.startsWith('sync/protocol/') || isCommon(t),
    bare: (s) => pkgName(s) === 'zod',
    why: 'sync/protocol is shared with the renderer: only sync/protocol/, common/ and zod',
  },
  'sync/': {
    relative: (t, from) => syncImportAllowed(from, t) || isCommon(t),
    bare: (s) => !['electron', 'solid-js', 'dompurify'].includes(pkgName(s)),
    why: 'sync/ runs without Electron or a DOM (no electron, solid-js, dompurify, main/, renderer/ or server/), and its layers import only downward: base < api < protocol < db, uploads < outbox < engine < service',
  },
  'renderer/': {
    relative: (t) => t.startsWith('renderer/') || t.startsWith('sync/protocol/') || isCommon(t),
    typeOnly: (t) => t === RENDERER_TYPE_ONLY,
    bare: (s) => !isNodeBuiltin(s) && !['electron', 'better-sqlite3', 'undici'].includes(pkgName(s)),
    why: 'renderer/ may import only renderer/, sync/protocol/, common/ and browser packages',
  },
  'server/': {
    relative: (t) => t.startsWith('server/') || isCommon(t),
    bare: (s) => !['electron', 'solid-js'].includes(pkgName(s)),
    why: 'server/ is the independent reference server: nothing from sync/, main/ or renderer/ (common/ is shared)',
  },
  'main/': {
    relative: (t) => !t.startsWith('renderer/') && !t.startsWith('server/'),
    bare: () => true,
    why: 'main/ wires the engine to Electron: it never imports renderer/ or server/ code',
  },
  'host/': {
    relative: (t) => t.startsWith('host/') || t.startsWith('sync/') || t.startsWith('server/') || isCommon(t),
    bare: (s) => !['electron', 'solid-js', 'dompurify'].includes(pkgName(s)),
    why: 'host/ is Node wiring shared by both hosts: sync/, server/, common/ and itself only, never electron or the UI',
  },
};

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import boundaries of the architecture guide' },
    schema: [],
    messages: { boundary: '{{why}} (import of "{{source}}")' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const zone = zoneOf(rel);
    if (!zone) return {};
    const rule = RULES[zone];
    function check(node, source, typeOnly = false) {
      if (typeof source !== 'string') return;
      let ok;
      if (source.startsWith('.') || source.startsWith('/')) {
        const target = path.relative(ROOT, path.resolve(path.dirname(file), source)).split(path.sep).join('/');
        ok = rule.relative(target + (path.extname(target) ? '' : '/'), rel) || (typeOnly && rule.typeOnly?.(target) === true);
      } else {
        ok = rule.bare(source);
      }
      if (!ok) context.report({ node, messageId: 'boundary', data: { why: rule.why, source } });
    }
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: (node) => node.source && check(node.source, node.source.value, node.importKind === 'type'),
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const lit = node.argument?.literal ?? node.argument;
        if (lit && lit.type === 'Literal') check(node, lit.value);
      },
    };
  },
};
