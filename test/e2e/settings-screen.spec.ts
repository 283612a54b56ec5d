/**
 * The personal settings screen (tracker "renderer part 3"). Online in the sandbox: from the
 * sidebar's "Personal settings", the theme and 24-hour time change in the screen, apply to the
 * page at once, and the server agrees (REST); the test notification shows the server's answer.
 * Through a real outage (the server process stopped): two settings changed offline apply locally
 * at once, wait as "Not saved yet" and in the outbox panel, a password change is refused up front,
 * and once the server is back they land, verified over REST.
 */
import type { Page } from '@playwright/test';
import { expect, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';
import { openRealWorld, restAs, type Rest } from './real-world.js';

async function openSettings(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Personal settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Personal settings' })).toBeVisible();
}

const tabs = (page: Page) => page.getByRole('navigation', { name: 'Settings tabs' });

async function serverSettings(rest: Rest): Promise<Record<string, unknown>> {
  const state = await rest.call('POST', '/register', { fetch_event_types: JSON.stringify(['user_settings']) });
  return state['user_settings'] as Record<string, unknown>;
}

test.describe('online, in the sandbox', () => {
  test.use({ sandboxAtStart: true, locale: 'en-US', colorScheme: 'light' });

  test('theme and 24-hour time change in the screen, apply at once, and the server agrees', async ({ app, host }, testInfo) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    const rest = await restAs(host.sandboxUrl() ?? '', 'desdemona@example.com');
    await openSettings(app);
    // #settings alone opens the first tab.
    await expect(app).toHaveURL(/#settings$/);
    await expect(tabs(app).getByRole('link', { name: 'Account & privacy' })).toHaveAttribute('aria-current', 'page');
    const account = app.getByRole('form', { name: 'Change your name' });
    await expect(account.getByRole('textbox', { name: 'Name' })).toHaveValue('Desdemona');
    await expect(app.getByRole('checkbox', { name: 'Show when other people are typing' })).toBeChecked();
    await screenshot(app, testInfo, '70-settings-account');
    await app.emulateMedia({ colorScheme: 'dark' });
    await screenshot(app, testInfo, '70-settings-account-dark');
    await app.emulateMedia({ colorScheme: 'light' });

    await tabs(app).getByRole('link', { name: 'Notifications' }).click();
    await expect(app).toHaveURL(/#settings\/notifications$/);
    await expect(app.getByRole('combobox', { name: 'Delay before message notification emails' })).toHaveValue('120');
    await expect(app.getByRole('checkbox', { name: 'Followed topics: desktop notifications' })).toBeChecked();
    await screenshot(app, testInfo, '72-settings-notifications', { shownDarkToo: true });

    await tabs(app).getByRole('link', { name: 'Preferences' }).click();
    await expect(app).toHaveURL(/#settings\/preferences$/);
    const html = app.locator('html');
    const theme = app.getByRole('combobox', { name: 'Theme', exact: true });
    const clock = app.getByRole('checkbox', { name: 'Use 24-hour time' });
    await expect(theme).toHaveValue('1');
    await expect(clock).not.toBeChecked();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(app.getByRole('spinbutton', { name: 'Font size' })).toHaveValue('16');
    await expect(app.getByRole('combobox', { name: 'Time zone' }).locator('option[value="Europe/Berlin"]')).toHaveCount(1);
    // The desktop app's own settings do not apply in a browser: said, with no controls.
    const desktop = app.getByRole('group', { name: 'Desktop app' });
    await expect(desktop).toContainText('they do not apply in a browser (its own spell check works in the text fields)');
    await expect(desktop.getByRole('checkbox')).toHaveCount(0);
    await expect(desktop.getByRole('listbox')).toHaveCount(0);
    await screenshot(app, testInfo, '71-settings-preferences');

    await theme.selectOption({ label: 'Dark' });
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await clock.check();
    await expect(clock).toBeChecked();
    await expect.poll(async () => {
      const s = await serverSettings(rest);
      return [s['color_scheme'], s['twenty_four_hour_time']];
    }, { timeout: 30_000 }).toEqual([2, true]);
    // Saved: no marker left.
    await expect(theme).not.toHaveAccessibleDescription(/Not saved yet/, { timeout: 30_000 });
    await screenshot(app, testInfo, '71-settings-preferences-dark');

    // Times in messages follow the 24-hour setting.
    await openTopic(app, 'general', 'lunch plans');
    const time = messageList(app).locator('li.message time').last();
    await expect(time).toHaveText(/(^|, )([01]\d|2[0-3]):[0-5]\d$/);
    await expect(html).toHaveAttribute('data-theme', 'dark');

    // Notifications: the test notification shows the server's answer in its words.
    await openSettings(app);
    await tabs(app).getByRole('link', { name: 'Notifications' }).click();
    await expect(tabs(app).getByRole('link', { name: 'Notifications' })).toHaveAttribute('aria-current', 'page');
    await app.getByRole('button', { name: 'Send a test notification' }).click();
    await expect(app.getByRole('alert')).toHaveText('The server refused: No active registered push device');
    const batching = app.getByRole('combobox', { name: 'Delay before message notification emails' });
    await batching.selectOption({ label: '1 hour' });
    await expect.poll(async () => (await serverSettings(rest))['email_notifications_batching_period_seconds'], { timeout: 30_000 }).toBe(3600);
    await expect(batching).not.toHaveAccessibleDescription(/Not saved yet/, { timeout: 30_000 });
    await app.getByRole('alert').scrollIntoViewIfNeeded();
    await screenshot(app, testInfo, '72-settings-notifications-dark');
  });
});

test.describe('a change the server refuses', () => {
  test.use({ sandboxAtStart: true, locale: 'en-US', colorScheme: 'light' });

  test('is shown at its control in the server’s words, with Retry and Discard', async ({ app, host }, testInfo) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    await app.goto(`${host.origin}/#settings/notifications`);
    const sound = app.getByRole('combobox', { name: 'Notification sound' });
    await expect(sound).toHaveValue('zulip');
    // Another client of the same engine (the screen offers only the server's sounds) queues one the server refuses.
    const control = host.service.connect(() => undefined);
    try {
      expect((await control.invoke('updateSettings', { settings: { notification_sound: 'foghorn' } })).ok).toBe(true);
    } finally {
      control.close();
    }
    await expect(sound).toHaveAccessibleDescription("Not saved: Invalid notification sound 'foghorn'", { timeout: 30_000 });
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 failed');
    await sound.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(app, testInfo, '74-settings-failed');
    await app.emulateMedia({ colorScheme: 'dark' });
    await screenshot(app, testInfo, '74-settings-failed-dark');
    await app.emulateMedia({ colorScheme: 'light' });
    // Retry sends it again: the server still refuses.
    await app.getByRole('button', { name: 'Retry saving Notification sound' }).click();
    await expect(sound).toHaveAccessibleDescription("Not saved: Invalid notification sound 'foghorn'", { timeout: 30_000 });
    // Discard drops it, and the server's sound is shown again.
    await app.getByRole('button', { name: 'Discard the change to Notification sound' }).click();
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    await expect(sound).not.toHaveAccessibleDescription(/Not saved/);
    await expect(sound).toHaveValue('zulip');
  });
});

test.describe('an Apple push device token (deprecated operation)', () => {
  test.use({ sandboxAtStart: true, locale: 'en-US', colorScheme: 'light' });

  test('is registered from Notifications; a bad token is refused in the server’s words', async ({ app, host }) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    await app.goto(`${host.origin}/#settings/notifications`);
    const form = app.getByRole('form', { name: 'Apple push device' });
    await form.getByRole('textbox', { name: 'Device token' }).fill('abc');
    await form.getByRole('textbox', { name: 'App ID' }).fill('org.zulip.Zulip');
    await form.getByRole('button', { name: 'Register device token' }).click();
    await expect(form.getByRole('alert')).toContainText('Invalid APNS token');
    await form.getByRole('textbox', { name: 'Device token' }).fill('a1b2c3d4');
    await form.getByRole('button', { name: 'Register device token' }).click();
    await expect(form.getByRole('status')).toHaveText('The server registered the device token.');
  });
});

test('offline: two settings wait in the outbox, a password change is refused up front, then they land', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ colorScheme: 'light' });
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    await openSettings(page);
    const html = page.locator('html');
    const theme = page.getByRole('combobox', { name: 'Theme', exact: true });
    const font = page.getByRole('spinbutton', { name: 'Font size' });

    await world.stopServer();
    // A password change needs the server: said up front, and the button is disabled.
    const password = page.getByRole('form', { name: 'Change your password' });
    await expect(page.getByText('Changing your name, email or password needs a connection to the server.')).toBeVisible();
    await password.getByLabel('Current password').fill('sandbox');
    await password.getByLabel('New password', { exact: true }).fill('a-train-password');
    await password.getByLabel('Repeat the new password').fill('a-train-password');
    await expect(password.getByRole('button', { name: 'Change password' })).toBeDisabled();
    await screenshot(page, testInfo, '73-settings-offline-account');
    await tabs(page).getByRole('link', { name: 'Preferences' }).click();
    await expect(theme).toHaveValue('1');
    await theme.selectOption({ label: 'Dark' });
    // Applied locally at once, though nothing reached the server.
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(theme).toHaveAccessibleDescription(/Not saved yet/);
    // Out of bounds is refused in the screen, before anything is queued.
    await font.fill('40');
    await font.press('Enter');
    await expect(font).toHaveAccessibleDescription('Font size must be a whole number from 12 to 20 px.');
    await font.fill('18');
    await font.press('Enter');
    await expect(html).toHaveCSS('font-size', '18px');
    await expect(font).toHaveAccessibleDescription(/Not saved yet/);
    await screenshot(page, testInfo, '73-settings-offline-pending-dark');

    // The header badge opens the outbox panel, which lists them in words.
    const badge = page.getByRole('status', { name: 'Outbox' });
    await expect(badge).toHaveText(/^[12] pending$/);
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    await expect(panel.getByRole('list', { name: 'Queued changes' })).toContainText('Change settings: Theme');
    await expect(panel.getByRole('list', { name: 'Queued changes' })).toContainText('Font size');
    await screenshot(page, testInfo, '74-settings-offline-outbox-dark');
    await panel.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    await expect(badge).toHaveCount(0, { timeout: 60_000 });
    // Signs in with the old password (`rest` fetches a key with it): the new one was never sent.
    const hamlet = await world.rest('hamlet@example.com');
    const s = await serverSettings(hamlet);
    expect([s['color_scheme'], s['web_font_size_px']]).toEqual([2, 18]);
    await tabs(page).getByRole('link', { name: 'Preferences' }).click();
    await expect(theme).not.toHaveAccessibleDescription(/Not saved yet/);
    await expect(font).toHaveValue('18');
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
