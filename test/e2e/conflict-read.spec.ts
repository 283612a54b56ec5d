/**
 * A conflicting edit shows both texts and settles with an edited merge that starts from both
 * sides' changes (overlaps marked); one that does not overlap merges by itself; a topic with unread
 * messages is marked read from its header (the sidebar count goes at once, the server agrees).
 */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

// The same words changed both ways (here by the same user in another client) cannot merge by
// themselves: the user sees both versions and writes the merge, which starts from both sides'
// changes where they do not overlap and marks where they do.
test('a conflict shows both versions; Edit a merge starts from both edits, the overlap marked; the merge lands', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'lunch plans', 'We meet at noon by the gate.\n\nBring an umbrella.\n\nSee you there.');
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(mine).toContainText('We meet at noon by the gate.');

  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = mine.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toHaveValue('We meet at noon by the gate.\n\nBring an umbrella.\n\nSee you there.');
  await desdemona.edit(id, 'We meet at one by the gate.\n\nBring a coat.\n\nSee you there.');
  await editor.fill('We meet at two by the gate.\n\nBring an umbrella.\n\nSee you there, all.');
  await mine.getByRole('button', { name: 'Save' }).click();

  const panel = mine.getByRole('group', { name: 'Edited elsewhere meanwhile' });
  const ours = panel.getByRole('region', { name: 'Your version' });
  const theirs = panel.getByRole('region', { name: 'Their version' });
  await expect(ours.locator('pre')).toContainText('We meet at noontwo by the gate.');
  await expect(theirs.locator('pre')).toContainText('We meet at noonone by the gate.');
  // Each side's change from the text both started from is marked.
  await expect(ours.locator('ins').first()).toHaveText('two');
  await expect(ours.locator('ins').last()).toContainText('all.');
  await expect(theirs.locator('ins').first()).toHaveText('one');
  await expect(theirs.locator('ins').last()).toContainText('coat.');
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 conflict');

  // Edit a merge starts from both edits: their coat and the user's greeting are in, the time
  // both changed is marked; Save waits until the markers are gone. Cancel goes back to the choices.
  await panel.getByRole('button', { name: 'Edit a merge' }).click();
  const merged = panel.getByRole('textbox', { name: 'Merged text' });
  await expect(merged).toHaveValue(
    '<<<<<<< yours\nWe meet at two by the gate.\n=======\nWe meet at one by the gate.\n>>>>>>> theirs\n\nBring a coat.\n\nSee you there, all.',
  );
  await expect(merged).toBeFocused();
  const save = panel.getByRole('button', { name: 'Save merge' });
  await expect(save).toBeDisabled();
  await expect(panel.getByRole('status')).toContainText('remove the marker lines to save');
  await screenshot(app, testInfo, '14-conflict-both-texts', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '14-conflict-both-texts-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(merged).toHaveCount(0);
  await panel.getByRole('button', { name: 'Edit a merge' }).click();
  await expect(merged).toHaveValue(/^<<<<<<< yours\n/);

  await merged.fill('  ');
  await expect(save).toBeDisabled();
  await merged.fill('We meet at half past one by the gate.\n\nBring a coat.\n\nSee you there, all.');
  await expect(panel.getByRole('status')).toHaveCount(0);
  expect(await desdemona.raw(id)).toBe('We meet at one by the gate.\n\nBring a coat.\n\nSee you there.');
  await save.click();

  await expect(panel).toHaveCount(0);
  await expect.poll(() => desdemona.raw(id)).toBe('We meet at half past one by the gate.\n\nBring a coat.\n\nSee you there, all.');
  await expect(mine.locator('.message-content')).toContainText('We meet at half past one by the gate.');
  await expect(mine.locator('.message-content')).toContainText('See you there, all.');
  await expect(mine.locator('.marker-pending')).toHaveCount(0);
  await expect(mine.locator('.draft-text')).toHaveCount(0);
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
});

// Changes to different words of the text merge cleanly: no conflict to settle, both land.
test('an edit whose changes do not overlap a newer one merges with it and lands, no conflict shown', async ({ app, host }) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'lunch plans', 'We meet at noon by the gate.');
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(mine).toContainText('We meet at noon by the gate.');

  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = mine.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toHaveValue('We meet at noon by the gate.');
  await desdemona.edit(id, 'We meet at noon by the old gate.');
  await editor.fill('We meet at one by the gate.');
  await mine.getByRole('button', { name: 'Save' }).click();

  await expect.poll(() => desdemona.raw(id)).toBe('We meet at one by the old gate.');
  await expect(mine.locator('.message-content')).toHaveText('We meet at one by the old gate.');
  await expect(mine.getByRole('group', { name: 'Edited elsewhere meanwhile' })).toHaveCount(0);
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
});

test('Mark as read in a topic header clears its unread count, and the server agrees', async ({ app, host }, testInfo) => {
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const before = await desdemona.unreadIn('general', 'release schedule');
  expect(before.length).toBeGreaterThan(0);
  // The messages stay unread while shown (reading would mark them read: compose-drafts.spec.ts).
  await markReadOnScroll(host, 'never');

  await openTopic(app, 'general', 'release schedule');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const row = sidebar(app).getByRole('list', { name: 'Topics in general' }).getByRole('listitem').filter({ has: app.getByRole('link', { name: 'release schedule', exact: true }) });
  await expect(row.locator('.unread')).toHaveText(`${before.length} unread`);
  const markRead = app.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Mark as read' });
  await expect(markRead).toBeVisible();
  // A topic without unread messages offers none.
  await openTopic(app, 'general', 'welcome');
  await expect(app.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await openTopic(app, 'general', 'release schedule');

  await expect(markRead).toBeVisible();
  await screenshot(app, testInfo, '15-mark-topic-read');
  await markRead.click();
  await expect(row.locator('.unread')).toHaveCount(0);
  await expect(markRead).toHaveCount(0);
  await expect.poll(() => desdemona.unreadIn('general', 'release schedule')).toEqual([]);
});
