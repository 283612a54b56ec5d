/**
 * Display settings applied live: the signed-in user changes them in another client (REST
 * PATCH /settings on the sandbox server); the engine hears the `user_settings` events and the page
 * follows without a reload: dark theme, 24-hour times, font size and line height, fluid width;
 * `automatic` follows the system's light / dark preference.
 */
import { demoUser, expect, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true, locale: 'en-US', colorScheme: 'light' });

test('dark theme, 24-hour time, font size and fluid width from another client apply live', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const html = app.locator('html');
  const panel = app.getByRole('region', { name: 'Conversation' });
  const time = messageList(app).locator('li.message time').last();
  // The defaults: automatic theme on a light system, the locale's 12-hour clock.
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(time).toHaveText(/\d{1,2}:\d{2}\s?[AP]M$/);
  await expect(html).toHaveCSS('background-color', 'rgb(246, 247, 249)');
  await expect(panel).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  await screenshot(app, testInfo, '16-settings-light');

  const desdemona = await demoUser(host, 'desdemona@example.com');
  await desdemona.updateSettings({ color_scheme: '2', twenty_four_hour_time: 'true', web_font_size_px: '18', web_line_height_percent: '150', fluid_layout_width: 'true' });

  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(time).toHaveText(/(^|, )([01]\d|2[0-3]):[0-5]\d$/);
  await expect(time).not.toHaveText(/[AP]M/);
  await expect(html).toHaveCSS('background-color', 'rgb(20, 23, 28)');
  await expect(panel).toHaveCSS('background-color', 'rgb(28, 32, 39)');
  await expect(html).toHaveCSS('font-size', '18px');
  await expect(html).toHaveCSS('line-height', '27px');
  await expect(html).toHaveClass(/\bfluid\b/);
  await screenshot(app, testInfo, '17-settings-dark');

  // Back to 12-hour time and a fixed width; automatic follows the system, live.
  await desdemona.updateSettings({ color_scheme: '1', twenty_four_hour_time: 'false', fluid_layout_width: 'false' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(time).toHaveText(/\d{1,2}:\d{2}\s?[AP]M$/);
  await expect(html).not.toHaveClass(/\bfluid\b/);
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test.describe('before any account is open', () => {
  test.use({ sandboxAtStart: false });

  test('the welcome screen follows the system theme', async ({ app }, testInfo) => {
    await expect(app.getByRole('heading', { name: 'Try the sandbox' })).toBeVisible();
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
    await app.emulateMedia({ colorScheme: 'dark' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(app.locator('html')).toHaveCSS('background-color', 'rgb(20, 23, 28)');
    await screenshot(app, testInfo, '01-welcome-dark');
  });
});
