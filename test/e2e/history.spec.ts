/**
 * Older messages load when the reader scrolls to the top, and the reader stays where they were.
 * The list is windowed: only the messages near the viewport are in the DOM.
 */
import { demoUser, expect, messageList, openTopic, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('scrolling to the top of a long topic loads older messages, keeping the reader in place', async ({ app, host }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  // The user's own messages (read): the view opens at the bottom, not at a first unread.
  const desdemona = await demoUser(host, 'desdemona@example.com');
  for (let i = 1; i <= 70; i++) await desdemona.send('general', 'long topic', `line ${i}`);
  await openTopic(app, 'general', 'long topic');
  const list = messageList(app);
  const scroller = app.locator('.message-scroll');
  const rendered = list.locator('li.message');
  await expect(list.getByText('line 70', { exact: true })).toBeInViewport();
  // The first page is 50 messages (each says where it stands in the view); the rest is behind
  // "load older". Fewer than that are in the DOM: only those near the viewport.
  await expect(rendered.last()).toHaveAttribute('aria-posinset', '50');
  await expect(rendered.last()).toHaveAttribute('aria-setsize', '50');
  expect(await rendered.count()).toBeLessThan(50);
  await expect(app.getByRole('button', { name: 'Load older messages' })).toBeAttached();

  // At the top, older messages are asked for.
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(rendered.last()).toHaveAttribute('aria-setsize', '70');
  // The older messages landed above, out of view: what was at the top is still in view.
  await expect(list.getByText('line 21', { exact: true })).toBeInViewport();
  await expect(list.getByText('line 1', { exact: true })).not.toBeInViewport();
  expect(await rendered.count()).toBeLessThan(70);

  // Further up: the first message.
  await expect
    .poll(async () => {
      await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
      return list.getByText('line 1', { exact: true }).isVisible();
    })
    .toBe(true);
  await expect(rendered.first()).toHaveAttribute('aria-posinset', '1');
});
