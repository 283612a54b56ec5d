/**
 * SQLite rows are typed at the statement (`cachedStatement<Params, Row>(db, sql)`, better-sqlite3's
 * `db.prepare<Params, Row>(sql)`), never cast with `as` where they are read. The check needs types
 * (a `Map.get(k) as T` is not a row), so it asks the TypeScript checker rather than ESLint: an `as`
 * (or `<T>x`) whose operand is `get`, `all` or `iterate` of a better-sqlite3 statement, anywhere
 * in sync/.
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const STATEMENT_READS = new Set(['get', 'all', 'iterate']);

function isStatement(t: ts.Type): boolean {
  const s = t.getSymbol() ?? t.aliasSymbol;
  return s !== undefined && s.getName() === 'Statement' && (s.declarations ?? []).some((d) => d.getSourceFile().fileName.includes('better-sqlite3'));
}

/** `file:line: text` of every row cast in the given source files of `program`. */
function rowCasts(program: ts.Program, fileNames: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!fileNames.includes(sf.fileName)) continue;
    const visit = (n: ts.Node): void => {
      if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) {
        let e = n.expression;
        while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
        if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && STATEMENT_READS.has(e.expression.name.text) && isStatement(checker.getTypeAtLocation(e.expression.expression))) {
          const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
          found.push(`${path.relative(process.cwd(), sf.fileName)}:${line}: ${n.getText(sf).replace(/\s+/g, ' ').slice(0, 120)}`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

function projectOptions(): { fileNames: string[]; options: ts.CompilerOptions } {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error('tsconfig.json did not parse');
  return { fileNames: parsed.fileNames, options: parsed.options };
}

describe('SQLite rows in sync/', () => {
  const { fileNames, options } = projectOptions();

  it('are never cast with as (typed at the statement instead)', () => {
    const sync = fileNames.filter((f) => path.relative(process.cwd(), f).startsWith(`sync${path.sep}`));
    expect(sync.length).toBeGreaterThan(100);
    expect(rowCasts(ts.createProgram(sync, options), sync)).toEqual([]);
  }, 60_000);

  it('the check finds a row cast, and only a row cast', () => {
    const dir = path.resolve('sync/db/queries');
    const probe = path.join(dir, '__row-cast-probe.ts');
    const source = [
      "import type { LocalDb } from '../open.js';",
      "import { cachedStatement } from './statements.js';",
      "export const a = (db: LocalDb) => cachedStatement(db, 'SELECT 1').pluck().get() as number;",
      "export const b = (db: LocalDb) => (db.prepare('SELECT 1 AS x').all() as Array<{ x: number }>).length;",
      "export const c = (db: LocalDb) => cachedStatement<[], number>(db, 'SELECT 1').pluck().get();",
      'export const d = (m: Map<string, unknown>) => m.get(\'k\') as number;',
    ].join('\n');
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    host.readFile = (f) => (path.resolve(f) === probe ? source : read(f));
    const exists = host.fileExists.bind(host);
    host.fileExists = (f) => path.resolve(f) === probe || exists(f);
    const program = ts.createProgram([probe], options, host);
    expect(rowCasts(program, [probe]).map((l) => l.split(':')[1])).toEqual(['3', '4']);
  }, 60_000);
});
