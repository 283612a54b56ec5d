/**
 * A conflicting edit shows both texts and settles with an edited merge; a topic with unread
 * messages is marked read from its header (the sidebar count goes at once, the server agrees).
 */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

// The same words changed both ways (here by the same user in another client) cannot merge by
// themselves: the user sees both versions and writes the merge.
test('a conflict shows both versions; an edited merge lands on the server', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'lunch plans', 'We meet at noon by the gate.');
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(mine).toContainText('We meet at noon by the gate.');

  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = mine.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toHaveValue('We meet at noon by the gate.');
  await desdemona.edit(id, 'We meet at one by the gate.');
  await editor.fill('We meet at two by the gate.');
  await mine.getByRole('button', { name: 'Save' }).click();

  const panel = mine.getByRole('group', { name: 'Edited elsewhere meanwhile' });
  const ours = panel.getByRole('region', { name: 'Your version' });
  const theirs = panel.getByRole('region', { name: 'Their version' });
  await expect(ours.locator('pre')).toHaveText('We meet at noontwo by the gate.');
  await expect(theirs.locator('pre')).toHaveText('We meet at noonone by the gate.');
  // Each side's change from the text both started from is marked.
  await expect(ours.locator('del')).toHaveText('noon');
  await expect(ours.locator('ins')).toHaveText('two');
  await expect(theirs.locator('ins')).toHaveText('one');
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 conflict');

  // Edit a merge starts from their text; Cancel goes back to the three choices.
  await panel.getByRole('button', { name: 'Edit a merge' }).click();
  const merged = panel.getByRole('textbox', { name: 'Merged text' });
  await expect(merged).toHaveValue('We meet at one by the gate.');
  await expect(merged).toBeFocused();
  await merged.fill('  ');
  await expect(panel.getByRole('button', { name: 'Save merge' })).toBeDisabled();
  await merged.fill('We meet at half past one by the gate.');
  await screenshot(app, testInfo, '14-conflict-both-texts');
  expect(await desdemona.raw(id)).toBe('We meet at one by the gate.');
  await panel.getByRole('button', { name: 'Save merge' }).click();

  await expect(panel).toHaveCount(0);
  await expect.poll(() => desdemona.raw(id)).toBe('We meet at half past one by the gate.');
  await expect(mine.locator('.message-content')).toHaveText('We meet at half past one by the gate.');
  await expect(mine.locator('.marker-pending')).toHaveCount(0);
  await expect(mine.locator('.draft-text')).toHaveCount(0);
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
