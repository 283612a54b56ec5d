/** Live updates: another demo user posts to the open topic and edits it; both show without a reload. */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('a message posted and then edited by another user appears without reloading', async ({ app, host }, testInfo) => {
  // Reading would mark the new message read at once (compose-drafts.spec.ts covers that): here
  // the unread count must stay to be seen, so the user's setting says never.
  await markReadOnScroll(host, 'never');
  await openTopic(app, 'general', 'lunch plans');
  const list = messageList(app);
  await expect(list.getByText('I will bring the curry.')).toBeVisible();
  await expect(app.getByRole('list', { name: 'Topics in general' }).locator('li.topic', { hasText: 'lunch plans' }).locator('.unread')).toHaveCount(0);
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  // A full reload would lose this (moving between views only changes the URL fragment).
  await app.evaluate('window.__samePage = 1');

  const othello = await demoUser(host, 'othello@example.com');
  const id = await othello.send('general', 'lunch plans', 'Table for six at **noon**, then.');
  const posted = list.locator(`li.message[data-message-id="${id}"]`);
  await expect(posted).toContainText('Table for six at noon, then.');
  await expect(posted.locator('strong')).toHaveText('noon');
  await expect(posted.locator('.sender')).toHaveText('Othello, the Moor of Venice');
  await expect(posted.getByText('edited', { exact: true })).toHaveCount(0);
  // The sidebar's unread count follows (the topic had none before).
  const topicRow = app.getByRole('list', { name: 'Topics in general' }).locator('li.topic', { has: app.getByRole('link', { name: 'lunch plans', exact: true }) });
  await expect(topicRow.locator('.unread')).toHaveText('1 unread');
  await screenshot(app, testInfo, '06-live-posted');

  await othello.edit(id, 'Table for six at **one**, then.');
  await expect(posted).toContainText('Table for six at one, then.');
  await expect(posted.getByText('edited', { exact: true })).toBeVisible();
  await screenshot(app, testInfo, '07-live-edited');

  // In the channel view, a message in a new topic shows up, and so does the topic in the sidebar.
  await app.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general' })).toBeVisible();
  await othello.send('general', 'fresh topic', 'A brand new topic.');
  await expect(list.getByText('A brand new topic.')).toBeVisible();
  await expect(app.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'fresh topic', exact: true })).toBeVisible();
  expect(await app.evaluate('window.__samePage')).toBe(1);
});

// A channel no open view covers hears of new messages through the engine's `unread` area.
test('a message in a channel that is not open updates its unread count in the sidebar', async ({ app, host }) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const nav = app.getByRole('navigation', { name: 'Channels' });
  const verona = nav.locator('li.channel', { has: app.getByRole('link', { name: 'Verona', exact: true }) }).locator('.row .unread').first();
  await expect(verona).toHaveText('1 unread'); // the demo realm's one unread message there
  const othello = await demoUser(host, 'othello@example.com');
  await othello.send('Verona', 'new in Verona', 'Hello Verona.');
  await expect(verona).toHaveText('2 unread');
  // Opening the channel shows the new topic first (newest first).
  await nav.getByRole('link', { name: 'Verona', exact: true }).click();
  await expect(nav.getByRole('list', { name: 'Topics in Verona' }).getByRole('link').first()).toHaveText('new in Verona');
});
