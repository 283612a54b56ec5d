import tseslint from 'typescript-eslint';
import boundaries from './eslint-rules/boundaries.js';

/** DOM globals that must never appear in sync/ (it runs in Node: main process, host, tests). */
const DOM_GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'HTMLElement', 'Element', 'DOMParser', 'indexedDB', 'location', 'XMLHttpRequest'];

/**
 * zod is imported as a namespace (`import * as z from 'zod'`): a bundler then keeps only the
 * builders used, where the `{ z }` object drags in all of zod, its 50 translated locales too
 * (scripts/main-bundle.ts).
 */
const ZOD_AS_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
  message: "import * as z from 'zod' (a bundler keeps only what is used; the z object is all of zod)",
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'coverage/**', 'node_modules/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { boundaries } } },
    rules: {
      'local/boundaries': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      'no-restricted-syntax': ['error', ZOD_AS_NAMESPACE],
    },
  },
  {
    // No casts at the wire: sync/api parses with zod instead (const assertions stay allowed).
    files: ['sync/api/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
  {
    // SQL lives in sync/db (queries/ per area): the layers above call query functions, never
    // prepare a statement themselves (test/lint/sql-in-db.test.ts).
    files: ['sync/engine/**/*.ts', 'sync/outbox/**/*.ts', 'sync/service/**/*.ts', 'sync/uploads/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ZOD_AS_NAMESPACE,
        { selector: "CallExpression[callee.property.name=/^(prepare|pragma)$/]", message: 'SQL lives in sync/db/queries: call (or add) a query function there' },
      ],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/db/queries/statements.js'], message: 'SQL lives in sync/db/queries: call (or add) a query function there' }] }],
    },
  },
  {
    // Dates are worded through kit/format.ts's kept formatters (`dateText`, `dayKey`, ...): a
    // `toLocaleDateString` / `toLocaleTimeString` or a new Intl.DateTimeFormat builds a formatter per
    // call, a tenth of a millisecond or more, per row and again each minute. Likewise names are
    // compared by kit/collate.ts's kept collator, not `localeCompare` with options.
    files: ['renderer/src/**/*.ts', 'renderer/src/**/*.tsx'],
    ignores: ['renderer/src/kit/format.ts', 'renderer/src/kit/collate.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ZOD_AS_NAMESPACE,
        { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]", message: 'word dates with kit/format.ts (dateText): a formatter kept, not built per call' },
        { selector: "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']", message: 'word dates with kit/format.ts (formatter, dateText): a formatter kept, not built per call' },
        { selector: "CallExpression[callee.property.name='localeCompare'][arguments.length>1]", message: 'compare with kit/collate.ts (compareText, byName): localeCompare with a locale or options builds a collator per call' },
      ],
    },
  },
  {
    files: ['sync/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', ...DOM_GLOBALS.map((name) => ({ name, message: 'sync/ never touches the DOM' }))],
    },
  },
);
