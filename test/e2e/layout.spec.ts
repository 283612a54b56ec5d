/**
 * Layout robustness at 700 px wide: a 700-character code line, a 700-character word, a long URL
 * and a long paste into the composer never widen the page or push the Send button away; code
 * blocks scroll inside themselves. Light and dark screenshots of the result.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true, viewport: { width: 700, height: 640 } });

/** How far the page is wider than the window (0 when nothing overflows). */
const overflow = async (app: Page) => Number(await app.evaluate('Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth'));

test('long lines and long pastes never push anything off-screen at 700 px', async ({ app, host }, testInfo) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await openTopic(app, 'general', 'lunch plans');
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const code = `const menu = [${Array.from({ length: 120 }, (_, i) => `'dish${i}'`).join(',')}];`.slice(0, 700);
  expect(code.length).toBe(700);
  await hamlet.send('general', 'lunch plans', `Here is the menu:\n\`\`\`js\n${code}\n\`\`\``);
  await hamlet.send('general', 'lunch plans', `${'W'.repeat(700)} and \`${'inline'.repeat(60)}\``);
  await hamlet.send('general', 'lunch plans', `https://example.com/${'very-long-path-segment/'.repeat(30)}`);

  const list = messageList(app);
  await expect(list.locator('li.message').last()).toContainText('very-long-path-segment');
  // The code block is above the two tall messages (the list renders only what is near the
  // viewport): scroll up to it.
  const pre = list.locator('li.message pre').last();
  const scrollUpTo = () =>
    expect
      .poll(async () => {
        await app.locator('.message-scroll').evaluate((el) => el.scrollBy({ top: -300 }));
        return pre.isVisible();
      })
      .toBe(true);
  await scrollUpTo();
  expect(await overflow(app)).toBeLessThanOrEqual(0);
  // The code block scrolls inside itself, within the window.
  const box = await pre.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
  expect(box.scroll).toBeGreaterThan(box.client);
  expect(box.right).toBeLessThanOrEqual(700);
  // The message list itself never scrolls sideways.
  expect(await app.locator('.message-scroll').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

  const send = app.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeInViewport({ ratio: 1 });
  await pre.scrollIntoViewIfNeeded();
  await pre.evaluate((el) => el.scrollBy({ left: 240 }));
  await screenshot(app, testInfo, '20-long-content-700px', { shownDarkToo: true });

  // A long paste without spaces (and one long line of code) into the composer.
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill(`${'x'.repeat(2000)}\n${code}`);
  await expect(send).toBeEnabled();
  await expect(send).toBeInViewport({ ratio: 1 });
  expect(await overflow(app)).toBeLessThanOrEqual(0);
  await send.click();
  await expect(input).toHaveValue('');
  await expect(list.locator('li.message').last()).toContainText('xxxxxxxx');
  expect(await overflow(app)).toBeLessThanOrEqual(0);
  await expect(send).toBeInViewport({ ratio: 1 });
  // The top bar's controls stay reachable too.
  await expect(app.getByRole('button', { name: 'Sign out' })).toBeInViewport({ ratio: 1 });
  await expect(app.getByRole('combobox', { name: 'Search messages' })).toBeInViewport();

  const desdemona = await demoUser(host, 'desdemona@example.com');
  await desdemona.updateSettings({ color_scheme: '2' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await overflow(app)).toBeLessThanOrEqual(0);
  await scrollUpTo();
  await screenshot(app, testInfo, '20-long-content-700px-dark');
});

test('a sender’s consecutive messages are grouped: one name and avatar, each message still named for screen readers', async ({ app, host }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const ids = [await hamlet.send('general', 'grouping', 'first of mine'), await hamlet.send('general', 'grouping', 'second of mine')];
  const othello = await demoUser(host, 'othello@example.com');
  ids.push(await othello.send('general', 'grouping', 'an interruption'));
  ids.push(await hamlet.send('general', 'grouping', 'third of mine'));
  await openTopic(app, 'general', 'grouping');
  const item = (id: number) => messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(item(ids[3]!)).toContainText('third of mine');
  // The second continues the first: no avatar shown; the name is there for assistive technology only.
  await expect(item(ids[0]!).locator('.avatar')).toBeVisible();
  await expect(item(ids[1]!).locator('.avatar')).toBeHidden();
  await expect(item(ids[1]!).locator('.sender')).toHaveText('King Hamlet');
  expect(await item(ids[1]!).locator('.sender').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
  // Another sender in between starts a new group, and so does Hamlet after them.
  await expect(item(ids[2]!).locator('.avatar')).toBeVisible();
  await expect(item(ids[3]!).locator('.avatar')).toBeVisible();
  await expect(messageList(app).locator('li.date-separator')).toHaveCount(0); // all sent today
});

test('a topic opens at its first unread message, not at the bottom', async ({ app, host }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const ids: number[] = [];
  for (let i = 1; i <= 30; i++) ids.push(await hamlet.send('general', 'catching up', `news item ${i}`));
  await openTopic(app, 'general', 'catching up');
  const item = (id: number) => messageList(app).locator(`li.message[data-message-id="${id}"]`);
  // The first unread is where reading starts; the newest is further down, out of view.
  await expect(item(ids[0]!)).toBeInViewport();
  await expect(item(ids[29]!)).not.toBeInViewport();
});
