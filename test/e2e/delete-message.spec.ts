/**
 * Deleting a message while the reference server PROCESS is stopped (issue #26 item 4): a member is
 * offered "Delete message" on their own recent message and not on someone else's; confirmed, the
 * deletion waits in the outbox and the message stays shown, marked "deleting"; the server starts,
 * the message is deleted once and leaves the view. Screenshots of the confirmation, light and dark.
 */
import { expect, test } from '@playwright/test';
import { messageList, openTopic, screenshot } from './fixtures.js';
import { openRealWorld } from './real-world.js';

test('offline: delete one’s own message; it waits marked "deleting", then is deleted once when the server is back', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const ids: Record<string, number> = {};
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const hamlet = await rest('hamlet@example.com');
    const othello = await rest('othello@example.com');
    ids['theirs'] = (await othello.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'cleanup', content: 'Othello says this stays.' }))['id'] as number;
    ids['mine'] = (await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'cleanup', content: 'A typo I regret.' }))['id'] as number;
    // Reading marks nothing: the outbox holds only the deletion.
    await hamlet.call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
  });
  try {
    await openTopic(page, 'Verona', 'cleanup');
    const mine = messageList(page).locator(`li.message[data-message-id="${ids['mine']}"]`);
    const theirs = messageList(page).locator(`li.message[data-message-id="${ids['theirs']}"]`);
    await expect(mine).toContainText('A typo I regret.');

    await world.stopServer();

    // Someone else's message: a member may not delete it, so it is not offered.
    await theirs.hover();
    await theirs.getByRole('button', { name: 'More message actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Quote and reply' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Delete message' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await mine.hover();
    await mine.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete message' });
    await expect(dialog).toContainText('This cannot be undone.');
    await expect(dialog.getByRole('status')).toContainText('You are offline');
    await screenshot(page, testInfo, '100-delete-message-light', { shownDarkToo: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(page, testInfo, '100-delete-message-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toHaveCount(0);

    // Still shown, marked, and waiting in the outbox in words.
    await expect(mine.locator('.marker-pending')).toHaveText('deleting');
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await page.getByRole('button', { name: /^Open the outbox/ }).click();
    await expect(page.getByRole('dialog', { name: 'Outbox' }).getByRole('listitem')).toHaveText([/^Delete a message/]);
    await screenshot(page, testInfo, '100-delete-message-pending');
    await page.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    await expect(mine).toHaveCount(0, { timeout: 30_000 });
    await expect(theirs).toBeVisible();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    const iago = await world.rest('iago@example.com');
    expect((await iago.raw('GET', `/messages/${ids['mine']}`)).body['msg']).toBe('Invalid message(s)');
    expect((await iago.raw('GET', `/messages/${ids['theirs']}`)).body['result']).toBe('success');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
