/**
 * The home views: the inbox lists unread conversations (a topic and a DM another user just posted),
 * opens them, and "mark as read" takes a row away with the server agreeing; recent conversations
 * order by activity and filter; the sidebar's direct messages list a new conversation live; no
 * fragment shows the user's home view; both views start a new topic or DM from their composer
 * buttons. Screenshots light and dark (51 inbox, 52 recent, 53 sidebar DMs).
 */
import type { Page, TestInfo } from '@playwright/test';
import { demoUser, expect, markReadOnScroll, openSandbox, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const OTHELLO = 'Othello, the Moor of Venice';

async function lightAndDark(app: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(app, testInfo, name, { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, `${name}-dark`);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect(app.locator('html')).not.toHaveAttribute('data-theme', 'dark');
}

test('the inbox lists new unread conversations, opens them, and marks rows read', async ({ app, host }, testInfo) => {
  await markReadOnScroll(host, 'never');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await sidebar(app).getByRole('link', { name: 'Inbox' }).click();
  await expect(app).toHaveURL(/#inbox$/);
  const inbox = app.getByRole('region', { name: 'Inbox' });
  await expect(inbox.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();

  const othello = await demoUser(host, 'othello@example.com');
  await othello.send('general', 'inbox topic', 'Is this in your inbox?');
  await othello.sendDm(['desdemona@example.com'], 'A word in private.');
  const topics = inbox.getByRole('list', { name: 'Unread topics in general' });
  await expect(topics.getByRole('link', { name: 'inbox topic', exact: true })).toBeVisible();
  const dms = inbox.getByRole('list', { name: 'Unread direct messages' });
  await expect(dms.getByRole('link', { name: OTHELLO, exact: true })).toBeVisible();
  await expect(dms.getByRole('listitem').filter({ hasText: OTHELLO }).locator('.unread')).toHaveText(/^\d+ unread$/);
  // DMs come first; the sidebar's Inbox count is the unread total.
  await expect(inbox.locator('a.home-link').first()).toHaveText(/Othello|Iago/);
  await expect(sidebar(app).getByRole('listitem').filter({ has: app.getByRole('link', { name: 'Inbox' }) }).locator('.unread')).toHaveText(/^\d+ unread$/);
  await lightAndDark(app, testInfo, '51-inbox');

  // Arrow keys move between the rows' links.
  await inbox.locator('a.home-link').first().focus();
  await app.keyboard.press('ArrowDown');
  await expect(inbox.locator('a.home-link').nth(1)).toBeFocused();

  // A group collapses.
  await inbox.getByRole('button', { name: 'Collapse general' }).click();
  await expect(topics).toHaveCount(0);
  await inbox.getByRole('button', { name: 'Expand general' }).click();
  await expect(topics).toBeVisible();

  // Clicking a row opens its conversation.
  await dms.getByRole('link', { name: OTHELLO, exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: `Direct messages with ${OTHELLO}` })).toBeVisible();
  await app.goBack();
  await expect(inbox.getByRole('link', { name: 'inbox topic', exact: true })).toBeVisible();

  // Mark one topic read: it leaves the inbox, and the server agrees.
  await inbox.getByRole('button', { name: 'Mark general › inbox topic as read' }).click();
  await expect(inbox.getByRole('link', { name: 'inbox topic', exact: true })).toHaveCount(0);
  const me = await demoUser(host, 'desdemona@example.com');
  await expect.poll(() => me.unreadIn('general', 'inbox topic'), { timeout: 20_000 }).toEqual([]);

  // Mark the rest read, row by row: the empty state.
  const marks = inbox.getByRole('button', { name: /^Mark / });
  for (let i = 0; i < 20 && (await marks.count()) > 0; i++) {
    const n = await marks.count();
    await marks.first().click();
    await expect.poll(() => marks.count(), { timeout: 10_000 }).toBeLessThan(n);
  }
  await expect(inbox.getByRole('heading', { name: 'You have no unread messages' })).toBeVisible();
  await expect(sidebar(app).getByRole('listitem').filter({ has: app.getByRole('link', { name: 'Inbox' }) }).locator('.unread')).toHaveCount(0);
  await screenshot(app, testInfo, '51-inbox-empty');
});

test('recent conversations order by activity; the sidebar lists a new DM conversation live', async ({ app, host }, testInfo) => {
  await markReadOnScroll(host, 'never');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await sidebar(app).getByRole('link', { name: 'Recent conversations' }).click();
  await expect(app).toHaveURL(/#recent$/);
  const recent = app.getByRole('region', { name: 'Recent conversations' });
  const rows = recent.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
  await expect(rows.first()).toBeVisible();

  const othello = await demoUser(host, 'othello@example.com');
  await othello.send('Verona', 'recent first', 'Newest topic.');
  await expect(rows.first()).toContainText('recent first');
  await expect(rows.first()).toContainText('Verona');
  await expect(rows.first().locator('.unread')).toHaveText('1 unread');

  // A new group DM: first in recent conversations, and listed live in the sidebar.
  await othello.sendDm(['desdemona@example.com', 'iago@example.com'], 'Group news.');
  await expect(rows.first()).toContainText('Iago');
  await expect(rows.first()).toContainText('Othello');
  await expect(rows.first().locator('time')).toBeVisible();
  await expect(rows.nth(1)).toContainText('recent first');
  const sideDms = sidebar(app).getByRole('list', { name: 'Direct messages' });
  const groupRow = sideDms.getByRole('listitem').filter({ hasText: 'Iago' }).filter({ hasText: 'Othello' });
  await expect(groupRow.locator('.unread')).toHaveText('1 unread');
  await lightAndDark(app, testInfo, '52-recent');

  // Filters.
  await recent.getByRole('button', { name: 'Direct messages' }).click();
  await expect(recent.getByRole('button', { name: 'Direct messages' })).toHaveAttribute('aria-pressed', 'true');
  await expect(rows.filter({ hasText: 'recent first' })).toHaveCount(0);
  await expect(rows.first()).toContainText('Iago');
  await recent.getByRole('button', { name: 'Unread' }).click();
  await expect(rows.filter({ hasText: 'recent first' })).toHaveCount(1);
  await expect(rows.filter({ hasNot: app.locator('.unread') })).toHaveCount(0);

  // The sidebar's DM row opens the conversation.
  await groupRow.getByRole('link').click();
  await expect(app.getByRole('heading', { level: 1, name: /^Direct messages with / })).toBeVisible();
  await expect(groupRow.getByRole('link')).toHaveAttribute('aria-current', 'page');
  await lightAndDark(app, testInfo, '53-sidebar-dms');
  // Leaving it: the row is no longer the current one, the view's row is.
  const inboxRow = sidebar(app).getByRole('list', { name: 'Views' }).getByRole('link', { name: 'Inbox' });
  await expect(inboxRow).not.toHaveAttribute('aria-current', 'page');
  await inboxRow.click();
  await expect(inboxRow).toHaveAttribute('aria-current', 'page');
  await expect(groupRow.getByRole('link')).not.toHaveAttribute('aria-current', 'page');
});

test('a channel offers more topics from its complete list', async ({ app }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const nav = sidebar(app);
  await nav.getByRole('link', { name: 'general', exact: true }).click();
  const list = nav.getByRole('list', { name: 'Topics in general' });
  await expect(list.getByRole('link').first()).toBeVisible();
  const before = await list.getByRole('link').count();
  await list.getByRole('button', { name: 'More topics' }).click();
  await expect(list.getByRole('button', { name: 'Fewer topics' })).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => list.getByRole('link').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(before);
  await list.getByRole('button', { name: 'Fewer topics' }).click();
  await expect(list.getByRole('button', { name: 'More topics' })).toBeVisible();
});

test.describe('the home view', () => {
  test.use({ sandboxAtStart: false });

  test('signing in opens the user’s home view (web_home_view), as Zulip web does, and follows the setting', async ({ app, host }) => {
    await openSandbox(app);
    // The sandbox user's setting is Zulip's default, the inbox; the URL stays without a fragment.
    await expect(app.getByRole('region', { name: 'Inbox' }).getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
    await expect(app).toHaveURL(`${host.origin}/`);
    await expect(app.getByText('Pick a channel or a topic on the left.')).toHaveCount(0);

    const me = await demoUser(host, 'desdemona@example.com');
    await me.updateSettings({ web_home_view: 'recent_topics' });
    await expect(app.getByRole('region', { name: 'Recent conversations' }).getByRole('heading', { level: 1, name: 'Recent conversations' })).toBeVisible({ timeout: 30_000 });
    await me.updateSettings({ web_home_view: 'all_messages' });
    await expect(app.getByRole('heading', { level: 1, name: 'Combined feed' })).toBeVisible({ timeout: 30_000 });
    await app.reload();
    await expect(app.getByRole('heading', { level: 1, name: 'Combined feed' })).toBeVisible({ timeout: 30_000 });
  });
});

test.describe('starting a conversation from the home views', () => {
  test.use({ sandboxAtStart: true });

  test('Inbox and Recent conversations offer New topic and New direct message, opening the composer', async ({ app, host }) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    await sidebar(app).getByRole('link', { name: 'Inbox' }).click();
    const inbox = app.getByRole('region', { name: 'Inbox' });
    await inbox.getByRole('button', { name: 'New topic' }).click();
    // A new topic with no channel chosen yet (none is in view), its channel picker first.
    const form = inbox.getByRole('form', { name: 'New topic' });
    const channel = form.getByRole('combobox', { name: 'Channel' });
    await expect(channel.locator('option:checked')).toHaveText('Pick a channel');
    await channel.selectOption({ label: 'general' });
    await form.getByRole('combobox', { name: 'Topic' }).fill('from the inbox');
    await form.getByRole('textbox', { name: 'Message to a new topic' }).fill('Started from the inbox.');
    await form.getByRole('button', { name: 'Send' }).click();
    // Sent: the app shows the conversation it went to.
    await expect(app.getByRole('heading', { level: 1, name: 'general › from the inbox' })).toBeVisible();
    const desdemona = await demoUser(host, 'desdemona@example.com');
    await expect.poll(() => desdemona.contentsIn('general', 'from the inbox')).toEqual(['Started from the inbox.']);

    await sidebar(app).getByRole('link', { name: 'Recent conversations' }).click();
    const recent = app.getByRole('region', { name: 'Recent conversations' });
    await recent.getByRole('button', { name: 'New direct message' }).click();
    await expect(recent.getByRole('form', { name: 'New direct message' }).getByRole('combobox', { name: 'Add a person' })).toBeFocused();
    await app.keyboard.press('Escape');
    await expect(recent.getByRole('form', { name: 'New direct message' })).toHaveCount(0);
    // The key c starts a new topic there too.
    await recent.getByRole('heading', { level: 1 }).click();
    await app.keyboard.press('c');
    await expect(recent.getByRole('form', { name: 'New topic' })).toBeVisible();
  });
});
