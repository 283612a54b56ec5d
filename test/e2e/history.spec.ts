/** Older messages load when the reader scrolls to the top, and the reader stays where they were. */
import { demoUser, expect, messageList, openTopic, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('scrolling to the top of a long topic loads older messages, keeping the reader in place', async ({ app, host }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const hamlet = await demoUser(host, 'hamlet@example.com');
  for (let i = 1; i <= 70; i++) await hamlet.send('general', 'long topic', `line ${i}`);
  await openTopic(app, 'general', 'long topic');
  const list = messageList(app);
  await expect(list.getByText('line 70', { exact: true })).toBeInViewport();
  // The first page is 50 messages; the rest is behind "load older".
  await expect(list.locator('li.message')).toHaveCount(50);
  await expect(app.getByRole('button', { name: 'Load older messages' })).toBeAttached();

  await app.locator('.message-scroll').evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(list.locator('li.message')).toHaveCount(70);
  await expect(list.locator('li.message').first()).toContainText('line 1');
  // The older messages landed above, out of view: what was at the top is still in view.
  await expect(list.getByText('line 21', { exact: true })).toBeInViewport();
  await expect(list.getByText('line 1', { exact: true })).not.toBeInViewport();
});
