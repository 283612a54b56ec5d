/**
 * The printed sign-in link works once: the browser it signed in lands on the clean URL; the same
 * link in another browser (a fresh context: no cookie) shows a page saying it was used and how to
 * get a fresh one; a fresh link from the host signs that browser in. Screenshots light and dark.
 */
import { expect, screenshot, test } from './fixtures.js';

test('a used sign-in link is refused with a clear page; a fresh one signs in', async ({ app, host, browser }, testInfo) => {
  await expect(app).toHaveURL(`${host.origin}/`);
  const other = await browser.newContext();
  try {
    const page = await other.newPage();
    const res = await page.goto(host.url);
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'This sign-in link has already been used' })).toBeVisible();
    await expect(page.getByText('kill -USR2 PID')).toBeVisible();
    await screenshot(page, testInfo, '16-signin-link-used-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '16-signin-link-used-dark');
    await page.goto(host.newLoginUrl());
    await expect(page).toHaveURL(`${host.origin}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'This sign-in link has already been used' })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
