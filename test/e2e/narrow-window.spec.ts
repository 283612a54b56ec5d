/**
 * Narrow windows and zoom. At 480 x 800 the sidebar hides behind the top bar's "Sidebar" button
 * (as Zulip web's narrow layout): it opens over the view, and Escape, a click beside it or
 * following one of its links closes it; a topic opened that way is read and answered with the
 * composer, and no screen scrolls sideways. At 200% zoom of a 1280 x 800 window (640 x 400 CSS px,
 * drawn at device scale 2) the same layout leaves room for the messages and the composer.
 * Screenshots light and dark at 480 px, and of the zoomed window.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, messageList, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const live = (app: Page) => expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
/** How far the page is wider than the window (0 or less when nothing overflows). */
const overflow = async (app: Page) => Number(await app.evaluate('document.documentElement.scrollWidth - window.innerWidth'));

/** Open the sidebar with its button, follow `links` in turn (a channel, then its topic); each closes it. */
async function go(app: Page, ...links: [name: string, within?: string][]): Promise<void> {
  const toggle = app.getByRole('button', { name: 'Sidebar' });
  for (const [name, within] of links) {
    await toggle.click();
    const nav = sidebar(app);
    const where = within ? nav.getByRole('list', { name: within }) : nav;
    await where.getByRole('link', { name, exact: true }).click();
    await expect(nav).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  }
}

test.describe('at 480 x 800', () => {
  test.use({ viewport: { width: 480, height: 800 } });

  test('the sidebar is an overlay behind a button; a topic is read and answered; nothing scrolls sideways', async ({ app, host }, testInfo) => {
    await live(app);
    const nav = sidebar(app);
    const toggle = app.getByRole('button', { name: 'Sidebar' });
    await expect(nav).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    // Open: the focus goes into it; Escape closes it and gives the focus back to the button.
    await toggle.click();
    await expect(nav).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Inbox' })).toBeFocused();
    await expect(nav.getByRole('link', { name: 'general', exact: true })).toBeInViewport();
    await app.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();
    // A click beside it closes it too.
    await toggle.click();
    await expect(nav).toBeVisible();
    await app.mouse.click(460, 400);
    await expect(nav).toBeHidden();

    // A channel, then one of its topics, each from the sidebar (which closes each time).
    await go(app, ['general'], ['lunch plans', 'Topics in general']);
    const heading = app.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('general › lunch plans');
    const list = messageList(app);
    await expect(list.locator('li.message').last()).toContainText('I will bring the curry.');
    // Messages get the width: no wrapping letter by letter.
    expect(await list.locator('li.message .message-body').last().evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(300);
    expect(await overflow(app)).toBeLessThanOrEqual(0);

    // The composer fits and sends.
    const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
    const send = app.getByRole('button', { name: 'Send', exact: true });
    await input.fill('Sent from a narrow window.');
    await expect(input).toBeInViewport({ ratio: 1 });
    await expect(send).toBeInViewport({ ratio: 1 });
    await send.click();
    const desdemona = await demoUser(host, 'desdemona@example.com');
    await expect.poll(async () => (await desdemona.contentsIn('general', 'lunch plans')).at(-1)).toBe('Sent from a narrow window.');
    for (const name of ['Sign out', 'Shortcuts', 'Sidebar']) await expect(app.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
    await expect(app.getByRole('combobox', { name: 'Search messages' })).toBeInViewport({ ratio: 1 });
    expect(await overflow(app)).toBeLessThanOrEqual(0);
    await screenshot(app, testInfo, '98-narrow-480', { shownDarkToo: true });
    await toggle.click();
    await expect(nav).toBeVisible();
    await screenshot(app, testInfo, '98-narrow-480-sidebar', { shownDarkToo: true });

    await desdemona.updateSettings({ color_scheme: '2' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(app, testInfo, '98-narrow-480-sidebar-dark');
    await app.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await screenshot(app, testInfo, '98-narrow-480-dark');

    // The other screens of the sidebar fit too.
    for (const [name, title] of [
      ['Inbox', 'Inbox'],
      ['Recent conversations', 'Recent conversations'],
      ['Personal settings', /settings/i],
      ['Channels', /channels/i],
    ] as const) {
      await go(app, [name]);
      await expect(app.getByRole('heading', { level: 1 }).first()).toHaveText(title);
      expect(await overflow(app), name).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('at 200% zoom of a 1280 x 800 window', () => {
  test.use({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });

  test('the narrow layout leaves room for the messages and the composer', async ({ app }, testInfo) => {
    await live(app);
    await expect(sidebar(app)).toBeHidden();
    await go(app, ['general'], ['lunch plans', 'Topics in general']);
    const list = messageList(app);
    await expect(list.locator('li.message').last()).toContainText('I will bring the curry.');
    // At least a few lines of messages stay visible above the composer.
    const room = await app.locator('.message-scroll').evaluate((el) => el.getBoundingClientRect().height);
    expect(room).toBeGreaterThan(120);
    const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
    await expect(input).toBeInViewport({ ratio: 1 });
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeInViewport({ ratio: 1 });
    await expect(app.getByRole('combobox', { name: 'Search messages' })).toBeInViewport({ ratio: 1 });
    expect(await overflow(app)).toBeLessThanOrEqual(0);
    await screenshot(app, testInfo, '99-zoom-200');
  });
});
