/**
 * The accessibility check every screenshot runs: axe-core over the page as it is shown (WCAG 2.1
 * A and AA rules, colour contrast included), in whichever theme the test has it. A violation fails
 * the test with the rule, the elements and axe's own words, so the screen that broke it is named.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page, TestInfo } from '@playwright/test';
import type { AxeResults } from 'axe-core';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** axe-core's browser build, put into a page once per document (page.evaluate is not bound by the page's CSP). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One line per failing element: the rule, where, and what axe says is wrong. */
export interface A11yProblem {
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/** The page's problems: every WCAG A/AA rule, or only `rules` (e.g. colour contrast when only the theme changed). */
export async function a11yProblems(page: Page, rules?: readonly string[]): Promise<A11yProblem[]> {
  // A transition caught halfway reads as low contrast: finish them first.
  await page.evaluate('for (const a of document.getAnimations()) a.finish()');
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
  // Violations only: axe's passes and incomplete lists are most of its work, and nothing reads them.
  const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: TAGS };
  const result = await page.evaluate<Pick<AxeResults, 'violations'>>(`axe.run(document, ${JSON.stringify({ runOnly, resultTypes: ['violations'] })})`);
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      target: n.target.map(String).join(' '),
      summary: (n.failureSummary ?? v.help).replace(/\s+/g, ' ').trim(),
    })),
  );
}

const isDark = (page: Page) => page.evaluate<boolean>("document.documentElement.getAttribute('data-theme') === 'dark'");

/** Wait (briefly) until the page's theme is `dark` or not; false when it does not follow (a theme the user chose). */
async function themeIs(page: Page, dark: boolean): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    if ((await isDark(page)) === dark) return true;
    await page.waitForTimeout(25);
  }
  return false;
}

/**
 * Fail the test (after attaching axe's report) when the page has any WCAG A/AA violation. With
 * `darkToo`, a screen shown in the light theme has its colours checked in the dark one as well (the
 * system's scheme switched and back; the other rules do not depend on the theme).
 */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string, opts: { darkToo: boolean }): Promise<void> {
  await report(testInfo, name, await a11yProblems(page));
  if (!opts.darkToo || (await isDark(page))) return;
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    // A theme the user chose does not follow the system's: nothing more to check then.
    if (await themeIs(page, true)) await report(testInfo, `${name} (in the dark theme)`, await a11yProblems(page, ['color-contrast']));
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await themeIs(page, false);
  }
}

async function report(testInfo: TestInfo, name: string, problems: readonly A11yProblem[]): Promise<void> {
  if (problems.length === 0) return;
  const text = problems.map((p) => `[${p.rule}/${p.impact}] ${p.target}: ${p.summary}`).join('\n');
  const survey = process.env['A11Y_SURVEY'];
  if (survey) {
    // A survey run lists every screen's problems in one file instead of stopping at the first.
    appendFileSync(survey, `## ${name}\n${text}\n`);
    return;
  }
  await testInfo.attach(`${name}-a11y.txt`, { body: text, contentType: 'text/plain' });
  throw new Error(`accessibility check failed on ${name} (${problems.length}):\n${text}`);
}
