/**
 * Lint rules checked through the project's real ESLint config: each case is a name, a file path
 * (which decides the config blocks that apply), the code, and whether the rules let it pass.
 */
import { ESLint, type Linter } from 'eslint';
import { expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

export type LintCase = readonly [name: string, filePath: string, code: string, allowed: boolean];

/** One test per case: the messages `counts` picks are none for an allowed case, some for the others. */
export function lintCases(cases: readonly LintCase[], counts: (m: Linter.LintMessage) => boolean): void {
  for (const [name, filePath, code, allowed] of cases) {
    it(name, async () => {
      const [result] = await eslint.lintText(code, { filePath });
      const errors = (result?.messages ?? []).filter(counts).map((m) => m.message);
      if (allowed) expect(errors).toEqual([]);
      else expect(errors.length).toBeGreaterThan(0);
    });
  }
}
