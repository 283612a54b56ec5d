/**
 * The drafts list (#drafts, key d) with the reference server PROCESS stopped (drafts are the
 * device's): drafts typed in two topics and in a new DM with nobody picked yet are all listed,
 * newest first, with the sidebar's count; Edit continues one in its conversation (composer filled,
 * focus in it), and the DM's once someone is picked is theirs; Delete asks first and the draft stays gone after a reload. Screenshots light and dark.
 */
import { test } from '@playwright/test';
import { expect, lightAndDark, openTopic, sidebar } from './fixtures.js';
import { openRealWorld } from './real-world.js';

test('offline: drafts of two topics and a DM with nobody yet are listed, continued and deleted', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const world = await openRealWorld(page, 'desdemona@example.com');
  try {
    await world.stopServer();

    await openTopic(page, 'general', 'lunch plans');
    const lunch = page.getByRole('textbox', { name: 'Message to lunch plans' });
    await lunch.fill('Maybe **tacos** at noon?');
    await openTopic(page, 'general', 'welcome');
    await page.getByRole('textbox', { name: 'Message to welcome' }).fill('Welcome, everyone who joined this week.');
    // A new direct message, nobody picked yet: kept too.
    await page.getByRole('button', { name: 'New direct message' }).click();
    const dm = page.getByRole('form', { name: 'New direct message' });
    await dm.getByRole('textbox', { name: 'Direct message text' }).fill('A word in private, once I know to whom.');
    await dm.getByRole('textbox', { name: 'Direct message text' }).blur();

    const drafts = sidebar(page).getByRole('link', { name: /^Drafts/ });
    await expect(drafts).toHaveText('Drafts3');
    // The key d opens the list (off any text field).
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('d');
    await expect(page).toHaveURL(/#drafts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Drafts list' });
    const items = list.getByRole('listitem');
    await expect(items).toHaveCount(3);
    // Newest first.
    await expect(items.nth(0)).toHaveAccessibleName('Draft: New direct message (nobody picked yet)');
    await expect(items.nth(1)).toHaveAccessibleName('Draft: #general › welcome');
    await expect(items.nth(2)).toHaveAccessibleName('Draft: #general › lunch plans');
    await expect(items.nth(0)).toContainText('A word in private, once I know to whom.');
    await expect(items.nth(1).locator('time')).toHaveText('Just now');
    await expect(items.nth(2).locator('strong')).toHaveText('tacos');
    await lightAndDark(page, testInfo, '101-drafts');

    // Edit continues it where it goes: the topic opens with the draft in the composer, focused.
    await page.getByRole('button', { name: 'Edit draft: #general › lunch plans' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'general › lunch plans' })).toBeVisible();
    await expect(lunch).toHaveValue('Maybe **tacos** at noon?');
    await expect(lunch).toBeFocused();

    // The DM with nobody picked yet: a new-DM composer holding it.
    await drafts.click();
    await page.getByRole('button', { name: 'Edit draft: New direct message (nobody picked yet)' }).click();
    await expect(dm.getByRole('textbox', { name: 'Direct message text' })).toHaveValue('A word in private, once I know to whom.');
    const picker = dm.getByRole('combobox', { name: 'Add a person' });
    await expect(picker).toBeFocused();
    // Someone picked: the draft is theirs now (not kept twice).
    await picker.fill('oth');
    await picker.press('Enter');
    await expect(dm.getByRole('list', { name: 'People picked' })).toContainText('Othello, the Moor of Venice');

    // Delete asks first; gone from the list and, after a reload, from the engine.
    await drafts.click();
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toHaveAccessibleName('Draft: Direct message to Othello, the Moor of Venice');
    await expect(items.nth(0)).toContainText('A word in private, once I know to whom.');
    await page.getByRole('button', { name: 'Delete draft: #general › welcome' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete draft' });
    await expect(confirm).toContainText('Welcome, everyone who joined this week.');
    await lightAndDark(page, testInfo, '101-drafts-delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Draft deleted.')).toBeVisible();
    await expect(items).toHaveCount(2);
    await expect(drafts).toHaveText('Drafts2');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible({ timeout: 30_000 });
    await expect(items).toHaveCount(2);
    await expect(list).not.toContainText('Welcome, everyone who joined this week.');

    // The last ones deleted: the empty state.
    for (const name of ['Delete draft: #general › lunch plans', 'Delete draft: Direct message to Othello, the Moor of Venice']) {
      await page.getByRole('button', { name }).click();
      await page.getByRole('dialog', { name: 'Delete draft' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete draft' })).toHaveCount(0);
    }
    await expect(page.getByRole('heading', { name: 'No drafts.' })).toBeVisible();
    await lightAndDark(page, testInfo, '101-drafts-empty');
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
