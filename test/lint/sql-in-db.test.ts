/** SQL lives in sync/db: the engine, outbox, service and uploads layers prepare no statement, checked through the project's real ESLint config. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function sqlErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('SQL lives in sync/db', () => {
  const cases: Array<[string, string, string, boolean]> = [
    ['engine may not prepare a statement', 'sync/engine/x.ts', "import type { LocalDb } from '../db/open.js'; export const f = (db: LocalDb) => db.prepare('SELECT 1').get();", false],
    ['outbox may not use the statement cache', 'sync/outbox/x.ts', "import { cachedStatement } from '../db/queries/statements.js'; export const f = cachedStatement;", false],
    ['service may not run a pragma', 'sync/service/x.ts', "import type { LocalDb } from '../db/open.js'; export const f = (db: LocalDb) => db.pragma('user_version');", false],
    ['engine may call a query function', 'sync/engine/x.ts', "import { getDraft } from './drafts.js'; import { draftRows } from '../db/queries/drafts.js'; export const f = [getDraft, draftRows];", true],
    ['engine may use a regular expression', 'sync/engine/x.ts', "export const f = (s: string) => /a(b)/.exec(s)?.[1];", true],
    ['db/queries may prepare statements', 'sync/db/queries/x.ts', "import type { LocalDb } from '../open.js'; import { cachedStatement } from './statements.js'; export const f = (db: LocalDb) => [db.prepare('SELECT 1'), cachedStatement(db, 'SELECT 2')];", true],
  ];
  for (const [name, file, code, allowed] of cases) {
    it(name, async () => {
      const errors = await sqlErrors(file, code);
      if (allowed) expect(errors).toEqual([]);
      else expect(errors.length).toBeGreaterThan(0);
    });
  }
});
