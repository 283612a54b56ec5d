/**
 * The outbox panel and sign-out with queued work: a change made while not connected is listed in
 * words with its state; a discard asks first; signing out asks what to do with what is left, and
 * "keep" leaves it on the device (the welcome screen says so, counted, until that account opens
 * again), sent once the same account opens again.
 */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('the badge opens the outbox panel; sign-out keeps queued work for the next sign-in', async ({ app, host }, testInfo) => {
  // Reading would queue read flags of its own as the sends scroll unread messages into view.
  await markReadOnScroll(host, 'never');
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const control = host.service.connect(() => undefined);
  expect(await control.invoke('stop', {})).toEqual({ ok: true, value: { ok: true } });
  await expect(app.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();

  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill('Kept on this device.');
  await input.press('Control+Enter');
  await input.fill('Never mind this one.');
  await input.press('Control+Enter');
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('2 pending');

  await app.getByRole('button', { name: 'Open the outbox' }).click();
  const panel = app.getByRole('dialog', { name: 'Outbox' });
  const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAccessibleName('Send a message to #general › lunch plans: Waiting to send');
  await screenshot(app, testInfo, '21-outbox-panel', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await screenshot(app, testInfo, '21-outbox-panel-dark');
  await app.emulateMedia({ colorScheme: 'light' });

  // Discard asks first, then the echo goes.
  await rows.nth(1).getByRole('button', { name: /^Discard: / }).click();
  await rows.nth(1).getByRole('button', { name: /^Yes, discard: / }).click();
  await expect(rows).toHaveCount(1);
  await expect(messageList(app).getByText('Never mind this one.')).toHaveCount(0);
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
  await panel.getByRole('button', { name: 'Close the outbox' }).click();
  await expect(panel).toHaveCount(0);

  // Sign out: the dialog says what is left and offers the three ways.
  await app.getByRole('button', { name: 'Sign out' }).click();
  const dialog = app.getByRole('dialog', { name: 'Sign out with changes not on the server?' });
  await expect(dialog).toContainText('This device has 1 change waiting to be sent for this account.');
  await expect(dialog.getByRole('button')).toHaveText(['Send them first, then sign out', 'Keep them and sign out', 'Discard them and sign out', 'Cancel']);
  await screenshot(app, testInfo, '22-sign-out-dialog', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await screenshot(app, testInfo, '22-sign-out-dialog-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Keep them and sign out' }).click();
  await expect(app.getByRole('button', { name: 'Open the sandbox' })).toBeVisible();
  // The welcome screen says what was kept, for whom, and how it goes: after a reload too.
  const kept = app.getByRole('status').filter({ has: app.getByRole('heading', { name: 'Kept on this device' }) });
  const said = 'Unsent changes are kept on this device for the sandbox (desdemona@example.com): 1 unsent change. They will be sent when you open the sandbox again.';
  await expect(kept).toContainText(said);
  await app.reload();
  await expect(kept).toContainText(said);
  await screenshot(app, testInfo, '22-sign-out-kept', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await screenshot(app, testInfo, '22-sign-out-kept-dark');
  await app.emulateMedia({ colorScheme: 'light' });

  // The same account again: what was kept is sent.
  await app.getByRole('button', { name: 'Open the sandbox' }).click();
  await openTopic(app, 'general', 'lunch plans');
  await expect(messageList(app).getByText('Kept on this device.')).toBeVisible();
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
  // Signed in again: nothing is said to be kept any more.
  await app.getByRole('button', { name: 'Sign out' }).click();
  await expect(app.getByRole('button', { name: 'Open the sandbox' })).toBeVisible();
  await expect(kept).toHaveCount(0);
  await app.getByRole('button', { name: 'Open the sandbox' }).click();
  await openTopic(app, 'general', 'lunch plans');
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = Number(await messageList(app).locator('li.message', { hasText: 'Kept on this device.' }).getAttribute('data-message-id'));
  expect(id).toBeLessThan(2 ** 52);
  expect(await desdemona.raw(id)).toBe('Kept on this device.');
});
