/**
 * zod is imported as a namespace, `import * as z from 'zod'`, everywhere (the bundlers keep only
 * the builders used; the `{ z }` object is all of zod, its translated locales too), checked through
 * the project's real ESLint config, in a layer whose own no-restricted-syntax rules replace the base ones.
 */
import { describe } from 'vitest';
import { lintCases, type LintCase } from './lint-cases.js';


describe('zod as a namespace', () => {
  const cases: LintCase[] = [
    ['the z object, in the renderer', 'renderer/src/x.ts', "import { z } from 'zod'; export const s = z.string();", false],
    ['the z object renamed, in the engine (its SQL rule set replaces the base one)', 'sync/engine/x.ts', "import { z as zz } from 'zod'; export const s = zz.string();", false],
    ['the default export, in the main process', 'main/x.ts', "import z from 'zod'; export const s = z.string();", false],
    ['a namespace import', 'sync/engine/x.ts', "import * as z from 'zod'; export const s = z.string();", true],
    ['a type-only namespace import', 'renderer/src/x.ts', "import type * as z from 'zod'; export type S = z.infer<z.ZodString>;", true],
    ['another package named z', 'renderer/src/x.ts', "import { z } from './z.js'; export const s = z;", true],
  ];
  lintCases(cases, (m) => m.ruleId === 'no-restricted-syntax' && m.message.includes('zod'));
});
