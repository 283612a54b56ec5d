/**
 * The accessibility check every screenshot runs: axe-core over the page as it is shown (WCAG 2.1
 * A and AA rules, colour contrast included), in whichever theme the test has it. A violation fails
 * the test with the rule, the elements and axe's own words, so the screen that broke it is named.
 */
import { appendFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** One line per failing element: the rule, where, and what axe says is wrong. */
export interface A11yProblem {
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

export async function a11yProblems(page: Page): Promise<A11yProblem[]> {
  // A transition caught halfway reads as low contrast: finish them first.
  await page.evaluate('for (const a of document.getAnimations()) a.finish()');
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      target: n.target.map(String).join(' '),
      summary: (n.failureSummary ?? v.help).replace(/\s+/g, ' ').trim(),
    })),
  );
}

/** Fail the test (after attaching axe's report) when the page has any WCAG A/AA violation. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const problems = await a11yProblems(page);
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
