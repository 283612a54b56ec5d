/**
 * The renderer words dates through kit/format.ts's kept formatters: `toLocaleDateString`,
 * `toLocaleTimeString` and `new Intl.DateTimeFormat` build a formatter per call (a tenth of a
 * millisecond or more; Recent conversations words every row again each minute); it compares names
 * with kit/collate.ts's kept collator, as `localeCompare` with options builds one per call.
 * Checked through the project's real ESLint config; test/renderer/kit/format.test.ts counts the
 * formatters built.
 */
import { describe } from 'vitest';
import { lintCases, type LintCase } from './lint-cases.js';

describe('dates are worded and names compared through kept formatters and collators (renderer)', () => {
  const cases: LintCase[] = [
    ['toLocaleDateString in a view', 'renderer/src/home/x.tsx', 'export const f = (d: Date) => d.toLocaleDateString();', false],
    ['toLocaleTimeString in a helper', 'renderer/src/narrow/x.ts', "export const f = (d: Date) => d.toLocaleTimeString('en', { hour: '2-digit' });", false],
    ['a new Intl.DateTimeFormat', 'renderer/src/people/x.ts', "export const f = (d: Date) => new Intl.DateTimeFormat('en').format(d);", false],
    ['kit/format.ts builds and keeps them', 'renderer/src/kit/format.ts', "export const f = (d: Date) => new Intl.DateTimeFormat('en').format(d);", true],
    ['dateText', 'renderer/src/home/x.tsx', "import { dateText } from '../kit/format.js'; export const f = (d: Date) => dateText(d, undefined, { hour: '2-digit' });", true],
    ['a number worded for the locale', 'renderer/src/home/x.tsx', 'export const f = (n: number) => n.toLocaleString();', true],
    ['the engine may (it formats no rows)', 'sync/engine/x.ts', 'export const f = (d: Date) => d.toLocaleDateString();', true],
    ['localeCompare with options', 'renderer/src/data/x.ts', "export const f = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });", false],
    ['localeCompare with a locale', 'renderer/src/data/x.ts', "export const f = (a: string, b: string) => a.localeCompare(b, 'en');", false],
    ['plain localeCompare (the default collator, kept by the engine)', 'renderer/src/data/x.ts', 'export const f = (a: string, b: string) => a.localeCompare(b);', true],
    ['compareText', 'renderer/src/data/x.ts', "import { compareText } from '../kit/collate.js'; export const f = (a: string, b: string) => compareText(a, b);", true],
  ];
  lintCases(cases, (m) => m.ruleId === 'no-restricted-syntax' && /kit\/(format|collate)\.ts/.test(m.message));
});
