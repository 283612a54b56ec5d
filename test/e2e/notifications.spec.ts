/**
 * Desktop notifications in browser mode (issue #22 item 1): with the app in the background, a
 * direct message from someone else shows a notification (the page's Web Notifications API, stubbed
 * here to record what is shown), and a click on it opens the conversation; Do Not Disturb on this
 * device silences them. The Notifications settings' "On this device" group, light and dark.
 */
import { demoUser, expect, recordNotifications, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

interface Shown {
  title: string;
  body: string;
}
declare const window: { __notes: Array<Shown & { onclick: (() => void) | null }>; __focused: boolean };

test('a DM in the background notifies; the click opens it; Do Not Disturb silences', async ({ app, host }, testInfo) => {
  await recordNotifications(app);
  await app.reload();
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const othello = await demoUser(host, 'othello@example.com');
  const notes = () => app.evaluate(() => window.__notes.map((n) => ({ title: n.title, body: n.body })));

  await othello.sendDm(['desdemona@example.com'], 'My fair warrior, a word.');
  await expect.poll(notes, { timeout: 15_000 }).toEqual([{ title: 'Othello, the Moor of Venice', body: 'My fair warrior, a word.' }]);
  await app.evaluate(() => window.__notes[0]!.onclick?.());
  await expect(app).toHaveURL(/#narrow\/dm\/\d+-/);
  await expect(app.getByRole('list', { name: 'Message list' })).toContainText('My fair warrior, a word.');

  // Do Not Disturb, from the settings: nothing more is shown.
  await app.goto(`${host.origin}/#settings/notifications`);
  const group = app.getByRole('group', { name: 'On this device' });
  await expect(group).toContainText('Desktop notifications are allowed here');
  await group.getByRole('checkbox', { name: /Do not disturb/ }).check();
  await screenshot(app, testInfo, '117-notification-settings-light', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await screenshot(app, testInfo, '117-notification-settings-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await othello.sendDm(['desdemona@example.com'], 'Are you asleep?');
  await app.goBack();
  await expect(app).toHaveURL(/#narrow\/dm\/\d+-/);
  await expect(app.getByRole('list', { name: 'Message list' })).toContainText('Are you asleep?', { timeout: 15_000 });
  expect(await notes()).toHaveLength(1);
});
