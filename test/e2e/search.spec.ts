/**
 * Search: the top bar's typeahead picks a channel and one of its topics by keyboard alone and opens
 * the topic; a person by mouse opens a filter view; a search with the server process stopped shows
 * the messages on the device with the note that the server may have more, its matches marked from
 * the device's index, and once the server answers the note goes and the server's marks show; the box shows a search's query only while in it, and an operand Zulip does
 * not know is said to be an invalid search; Recent conversations shows
 * a time on every row. Screenshots light and dark
 * (32 typeahead, 33 offline search, 34 recent times, 35 filter results).
 */
import type { Page, TestInfo } from '@playwright/test';
import { demoUser, expect, messageList, screenshot, sidebar, test } from './fixtures.js';
import { openRealWorld } from './real-world.js';

const searchBox = (app: Page) => app.getByRole('combobox', { name: 'Search messages' });
const suggestions = (app: Page) => app.getByRole('listbox', { name: 'Search suggestions' });
const PARTIAL = 'Showing messages on this device; the server may have more. Searches again when online.';

async function lightAndDark(app: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(app, testInfo, name, { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, `${name}-dark`);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect(app.locator('html')).not.toHaveAttribute('data-theme', 'dark');
}

test.describe('with the sandbox', () => {
  test.use({ sandboxAtStart: true });

  test('the typeahead completes a channel and its topic by keyboard, and a person by mouse', async ({ app }, testInfo) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    // "/" focuses the box; typing lists what the word can be.
    await app.keyboard.press('/');
    await expect(searchBox(app)).toBeFocused();
    await app.keyboard.type('ver');
    await expect(searchBox(app)).toHaveAttribute('aria-expanded', 'true');
    await expect(suggestions(app).getByRole('option', { name: 'Messages in #Verona, channel:Verona' })).toBeVisible();
    await expect(suggestions(app).getByRole('option').first()).toHaveAccessibleName('Search for “ver”');
    // Tab takes the first completion.
    await app.keyboard.press('Tab');
    await expect(searchBox(app)).toHaveValue('channel:Verona ');
    await expect(searchBox(app)).toBeFocused();

    // The topics of the channel typed, narrowed by what follows; Down highlights, Enter picks.
    await app.keyboard.type('topic:');
    await expect(suggestions(app).getByRole('option', { name: /^Topic “balcony scene” in #Verona/ })).toBeVisible();
    await app.keyboard.press('ArrowDown');
    await expect(suggestions(app).getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await lightAndDark(app, testInfo, '32-search-typeahead');
    // Typing on clears the highlight and narrows the list.
    await app.keyboard.type('sw');
    const sword = suggestions(app).getByRole('option', { name: /^Topic “sword fight” in #Verona/ });
    await expect(suggestions(app).getByRole('option')).toHaveCount(1);
    await app.keyboard.press('ArrowDown');
    await expect(sword).toHaveAttribute('aria-selected', 'true');
    await expect(searchBox(app)).toHaveAttribute('aria-activedescendant', (await sword.getAttribute('id')) ?? 'none');
    await app.keyboard.press('Enter');
    await expect(searchBox(app)).toHaveValue('channel:Verona topic:"sword fight" ');
    // Enter with nothing highlighted searches: the topic's own view, at Zulip's URL.
    await app.keyboard.press('Enter');
    await expect(app.getByRole('heading', { level: 1, name: 'Verona › sword fight' })).toBeVisible();
    await expect(app).toHaveURL(/#narrow\/channel\/\d+-Verona\/topic\/sword\.20fight$/);
    await expect(messageList(app)).toContainText('Rehearsal for the sword fight moves to Thursday.');
    await expect(suggestions(app)).toBeHidden();

    // Escape closes the list and leaves the text.
    await searchBox(app).click();
    await searchBox(app).fill('is:');
    await expect(suggestions(app).getByRole('option', { name: 'Starred messages, is:starred' })).toBeVisible();
    await app.keyboard.press('Escape');
    await expect(suggestions(app)).toBeHidden();
    await expect(searchBox(app)).toHaveValue('is:');

    // A person, picked with the mouse; any mix of operators opens as search results.
    await searchBox(app).fill('sender:oth');
    await suggestions(app).getByRole('option', { name: /^Sent by Othello/ }).click();
    await expect(searchBox(app)).toHaveValue('sender:othello@example.com ');
    await app.keyboard.type('-is:resolved');
    await expect(suggestions(app).getByRole('option', { name: 'Exclude: resolved topics, -is:resolved' })).toBeVisible();
    // Nothing highlighted: Enter searches the text as it is.
    await app.keyboard.press('Enter');
    await expect(app).toHaveURL(/#narrow\/sender\/\d+-[^/]+\/-is\/resolved$/);
    await expect(app.getByRole('heading', { level: 1, name: /^Search results for “sender:Othello.* -is:resolved”$/ })).toBeVisible();
    await expect(messageList(app).getByRole('listitem').first()).toBeVisible();
    await expect(searchBox(app)).toHaveValue('sender:othello@example.com -is:resolved');
    await expect(app.getByText(PARTIAL)).toHaveCount(0);
    await lightAndDark(app, testInfo, '35-search-filter');
  });

  test('the box shows a search’s query only while in that search', async ({ app }) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    await searchBox(app).fill('sword');
    await app.keyboard.press('Enter');
    await expect(app.getByRole('heading', { level: 1, name: 'Search results for “sword”' })).toBeVisible();
    await expect(searchBox(app)).toHaveValue('sword');
    // Another view: the old query is gone from the box.
    await sidebar(app).getByRole('link', { name: 'general', exact: true }).click();
    await expect(app.getByRole('heading', { level: 1, name: 'general' })).toBeVisible();
    await expect(searchBox(app)).toHaveValue('');
    await sidebar(app).getByRole('link', { name: 'Inbox' }).click();
    await expect(app).toHaveURL(/#inbox$/);
    await expect(searchBox(app)).toHaveValue('');
    // Back to the search: its query again.
    await app.goBack();
    await app.goBack();
    await expect(app.getByRole('heading', { level: 1, name: 'Search results for “sword”' })).toBeVisible();
    await expect(searchBox(app)).toHaveValue('sword');
  });

  test('an operand Zulip does not know is said to be an invalid search, in a sentence', async ({ app }) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    await searchBox(app).fill('is:foo');
    await app.keyboard.press('Enter');
    await expect(app).toHaveURL(/#narrow\/is\/foo$/);
    const said = app.getByRole('status').filter({ hasText: 'This search is not valid' });
    await expect(said).toContainText('“is:foo” is not something messages can be filtered by: “is:” takes dm, private, starred, unread, mentioned, alerted, followed, muted or resolved.');
    await expect(searchBox(app)).toHaveValue('is:foo');
  });

  test('recent conversations show when each conversation last had a message', async ({ app, host }, testInfo) => {
    await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
    const othello = await demoUser(host, 'othello@example.com');
    await othello.send('general', 'timely topic', 'Posted just now.');
    await sidebar(app).getByRole('link', { name: 'Recent conversations' }).click();
    const recent = app.getByRole('region', { name: 'Recent conversations' });
    const rows = recent.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    const fresh = rows.filter({ has: app.getByRole('link', { name: 'timely topic', exact: true }) });
    await expect(fresh.locator('time')).toHaveText('Just now');
    await expect(fresh.locator('time')).toHaveAttribute('title', /\d/);
    // Every row has its time (topics and direct messages alike).
    const count = await rows.count();
    expect(count).toBeGreaterThan(5);
    await expect(recent.locator('.recent-time time')).toHaveCount(count);
    await lightAndDark(app, testInfo, '34-recent-times');
  });
});

test('a search with the server stopped shows the device’s messages and says the server may have more', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const othello = await rest('othello@example.com');
    await othello.call('POST', '/messages', { type: 'stream', to: 'general', topic: 'zanzibar notes', content: 'The zanzibar manuscript is in the library.' });
  });
  try {
    await world.stopServer();
    await searchBox(page).click();
    await searchBox(page).fill('zanzibar');
    await expect(suggestions(page).getByRole('option').first()).toHaveAccessibleName('Search for “zanzibar”');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Search results for “zanzibar”' })).toBeVisible();
    await expect(messageList(page)).toContainText('The zanzibar manuscript is in the library.');
    // The matched word is marked, from the device's own index (the server is down).
    const matches = messageList(page).locator('.message-content mark.search-match');
    await expect(matches).toHaveText(['zanzibar']);
    const topicMarks = messageList(page).locator('.recipient-run mark.search-match');
    await expect(topicMarks).toHaveText(['zanzibar']);
    const note = page.getByRole('status').filter({ hasText: PARTIAL });
    await expect(note).toBeVisible();
    await lightAndDark(page, testInfo, '33-search-offline');

    // The server back: the search is asked again, its answer covers the view, the note goes.
    await world.startServer();
    await expect(note).toHaveCount(0, { timeout: 30_000 });
    await expect(messageList(page)).toContainText('The zanzibar manuscript is in the library.');
    // Online, the server's marks (its match_content) take the place of the device's.
    const serverMarks = messageList(page).locator('.message-content span.highlight');
    await expect(serverMarks).toHaveText(['zanzibar']);
    await expect(matches).toHaveCount(0);
    // Its marked topic (match_subject) too, in the conversation's heading.
    await expect(topicMarks).toHaveText(['zanzibar']);
    await expect(messageList(page).locator('.recipient-run').first()).toHaveText('general › zanzibar notes');
    // Other views mark nothing.
    await sidebar(page).getByRole('link', { name: 'general', exact: true }).click();
    await expect(messageList(page)).toContainText('The zanzibar manuscript is in the library.');
    await expect(matches).toHaveCount(0);
    await expect(serverMarks).toHaveCount(0);
    await expect(topicMarks).toHaveCount(0);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
