/**
 * The accessibility check itself can fail: on a page with text under 4.5:1 and a list holding a
 * non-item, axe names both rules; asked for colour contrast alone, it names that one only.
 */
import { expect, test } from '@playwright/test';
import { a11yProblems } from './a11y.js';

test('the axe check finds low contrast and a broken list, and runs one rule when asked', async ({ page }) => {
  await page.setContent('<html lang="en"><head><title>check</title></head><body><main><p style="color:#999;background:#fff">faint</p><ul><div>not an item</div></ul></main></body></html>');
  expect((await a11yProblems(page)).map((p) => p.rule)).toEqual(expect.arrayContaining(['color-contrast', 'list']));
  expect((await a11yProblems(page, ['color-contrast'])).map((p) => p.rule)).toEqual(['color-contrast']);
});
