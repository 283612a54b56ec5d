/** SQL lives in sync/db: the engine, outbox, service and uploads layers prepare no statement, checked through the project's real ESLint config. */
import { describe } from 'vitest';
import { lintCases, type LintCase } from './lint-cases.js';


describe('SQL lives in sync/db', () => {
  const cases: LintCase[] = [
    ['engine may not prepare a statement', 'sync/engine/x.ts', "import type { LocalDb } from '../db/open.js'; export const f = (db: LocalDb) => db.prepare('SELECT 1').get();", false],
    ['outbox may not use the statement cache', 'sync/outbox/x.ts', "import { cachedStatement } from '../db/queries/statements.js'; export const f = cachedStatement;", false],
    ['service may not run a pragma', 'sync/service/x.ts', "import type { LocalDb } from '../db/open.js'; export const f = (db: LocalDb) => db.pragma('user_version');", false],
    ['engine may call a query function', 'sync/engine/x.ts', "import { getDraft } from './drafts.js'; import { draftRows } from '../db/queries/drafts.js'; export const f = [getDraft, draftRows];", true],
    ['engine may use a regular expression', 'sync/engine/x.ts', "export const f = (s: string) => /a(b)/.exec(s)?.[1];", true],
    ['db/queries may prepare statements', 'sync/db/queries/x.ts', "import type { LocalDb } from '../open.js'; import { cachedStatement } from './statements.js'; export const f = (db: LocalDb) => [db.prepare('SELECT 1'), cachedStatement(db, 'SELECT 2')];", true],
  ];
  lintCases(cases, (m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports');
});
