/**
 * An owner edits their own message sent hours ago while not connected: the time limit on editing
 * does not bind owners, administrators and moderators, so the device keeps the message's raw text
 * and the edit waits in the outbox, then lands once when the session starts again.
 */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('an owner edits an own message older than the edit window offline, and it lands once', async ({ app, host }, testInfo) => {
  // Reading would queue read flags of its own next to the edit.
  await markReadOnScroll(host, 'never');
  await openTopic(app, 'general', 'welcome');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const original = 'Welcome to the **Sandbox** realm! This is an offline copy of a team chat; poke at anything.';
  const id = Number(await messageList(app).locator('li.message', { hasText: 'Welcome to the Sandbox realm!' }).getAttribute('data-message-id'));
  // By id: while it is edited the item shows the editor instead of the text.
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  const sent = await desdemona.message(id);
  // Hours old, far past the sandbox realm's 10-minute content-edit limit for members.
  expect(Date.now() / 1000 - sent.timestamp).toBeGreaterThan(6 * 3600);
  expect(await desdemona.versions(id)).toBe(1);
  // The device fetched its raw text in the background once live (before this change it kept only
  // messages inside the edit window).
  await expect
    .poll(() => host.service.activeSession?.db.prepare('SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(id), { timeout: 15_000 })
    .toBe(original);

  const control = host.service.connect(() => undefined);
  try {
    expect(await control.invoke('stop', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(app.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();

    await mine.getByRole('button', { name: 'Edit message' }).click();
    const editor = mine.getByRole('textbox', { name: 'Message text' });
    await expect(editor).toHaveValue(original);
    await expect(mine).not.toContainText('not on this device');
    await editor.fill('Welcome to the **Sandbox** realm! Edited offline by its owner, hours later.');
    await mine.getByRole('button', { name: 'Save' }).click();
    // Pending, the message shows the text as typed (the server renders it once it lands).
    await expect(mine.locator('.message-content')).toHaveText('Welcome to the **Sandbox** realm! Edited offline by its owner, hours later.');
    await expect(mine.locator('.marker-pending')).toBeVisible();
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await screenshot(app, testInfo, '90-offline-edit-old-light');
    await app.emulateMedia({ colorScheme: 'dark' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(app, testInfo, '90-offline-edit-old-dark');
    await app.emulateMedia({ colorScheme: 'light' });
    expect(await desdemona.raw(id)).toBe(original);

    expect(await control.invoke('start', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    await expect(mine.locator('.marker-pending')).toHaveCount(0);
    await expect(mine.locator('.message-content')).toHaveText('Welcome to the Sandbox realm! Edited offline by its owner, hours later.');
    expect(await desdemona.raw(id)).toBe('Welcome to the **Sandbox** realm! Edited offline by its owner, hours later.');
    // Exactly one edit: the original and the one version the queued edit made.
    expect(await desdemona.versions(id)).toBe(2);
  } finally {
    control.close();
  }
});
