/**
 * Older messages the device does not have, asked for with the server process stopped: the view
 * says they will load when the connection is back (no button spinning forever), and when the
 * server is back they load by themselves. Screenshots light and dark (97 older offline).
 */
import { test, expect } from '@playwright/test';
import { messageList, screenshot } from './fixtures.js';
import { openRealWorld } from './real-world.js';

const TOTAL = 80;

test('older messages asked for offline wait for the connection, then load by themselves', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  let scotland = 0;
  // A channel Hamlet is not in: its history is not synced to his device, only the pages he opens.
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const othello = await rest('othello@example.com');
    for (let i = 1; i <= TOTAL; i++) await othello.call('POST', '/messages', { type: 'stream', to: 'Scotland', topic: 'heath', content: `heath note ${i}` });
    const streams = (await othello.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>;
    scotland = streams.find((s) => s.name === 'Scotland')!.stream_id;
  });
  try {
    await page.goto(`${new URL(page.url()).origin}/#narrow/channel/${scotland}-Scotland/topic/heath`);
    await expect(page.getByRole('heading', { level: 1, name: 'Scotland › heath' })).toBeVisible();
    await expect(messageList(page).getByText(`heath note ${TOTAL}`, { exact: true })).toBeVisible({ timeout: 30_000 });
    const older = page.getByRole('button', { name: 'Load older messages' });
    await expect(older).toBeVisible();

    await world.stopServer();
    await older.click();
    const waits = page.getByRole('status').filter({ hasText: 'Older messages will load when the connection is back.' });
    await expect(waits).toBeVisible();
    await expect(page.getByRole('button', { name: /older messages/ })).toHaveCount(0);
    // Scrolled to the top: the note stays, no page is asked for again meanwhile.
    await page.locator('.message-scroll').evaluate((el) => (el.scrollTop = 0));
    await expect(waits).toBeInViewport();
    await screenshot(page, testInfo, '97-older-offline', { shownDarkToo: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(page, testInfo, '97-older-offline-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The server is back: older messages load without another click, and the button is back for more.
    await world.startServer();
    await expect(waits).toHaveCount(0, { timeout: 30_000 });
    const oldestShown = async () => Number((await messageList(page).locator('li.message .message-content').first().textContent())?.match(/heath note (\d+)/)?.[1] ?? NaN);
    await expect.poll(oldestShown, { timeout: 30_000 }).toBeLessThan(31);
    await expect(older).toBeEnabled();
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
