/**
 * Navigation views in the sidebar, through a real outage (the server PROCESS stopped): a custom
 * view is added from the open channel under a name and a built-in view is unpinned (it moves under
 * "More views"); both say "not saved yet" and are pending in the outbox panel; a blank fragment
 * and a named built-in view are refused in the server's words. The server starts: both land,
 * verified over REST (GET /navigation_views). Online, the custom view is renamed and deleted and
 * the built-in view pinned again, each verified over REST.
 */
import type { Page } from '@playwright/test';
import { expect, lightAndDark, sidebar, test } from './fixtures.js';
import { openRealWorld, type Rest } from './real-world.js';

type View = { fragment: string; is_pinned: boolean; name: string | null };

const views = (page: Page) => sidebar(page).getByRole('list', { name: 'Views' });
const serverViews = async (rest: Rest) => (await rest.call('GET', '/navigation_views'))['navigation_views'] as View[];

async function addViewDialog(page: Page) {
  await views(page).getByRole('button', { name: 'More views' }).click();
  await page.getByRole('menu', { name: 'More views' }).getByRole('menuitem', { name: 'Add this view to the sidebar…' }).click();
  return page.getByRole('dialog', { name: 'Add this view to the sidebar' });
}

test('offline: add a custom view and unpin a built-in one; pending in the outbox; the server starts and both land', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const hamlet = await world.rest('hamlet@example.com');
    // hamlet's demo views: Inbox pinned, Starred unpinned, a custom "Castle works". The sidebar follows them.
    const before = await serverViews(hamlet);
    expect(before.map((v) => v.fragment)).toEqual(['inbox', 'narrow/is/starred', expect.stringMatching(/Denmark\/topic\/castle$/)]);
    await expect(views(page).getByRole('link', { name: 'Castle works' })).toBeVisible();
    await expect(views(page).getByRole('link', { name: 'Starred messages' })).toHaveCount(0);
    await sidebar(page).getByRole('link', { name: 'Denmark', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Denmark/ })).toBeVisible();
    await expect(page).toHaveURL(/#narrow\/channel\/\d+-Denmark$/);
    const fragment = String(await page.evaluate('location.hash')).slice(1);

    await world.stopServer();

    // A custom view from the open channel, with a name.
    let dialog = await addViewDialog(page);
    await expect(dialog.getByRole('textbox', { name: 'View (its link after #)' })).toHaveValue(fragment);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Danish affairs');
    await dialog.getByRole('button', { name: 'Add view' }).click();
    const custom = views(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Danish affairs' }) });
    await expect(custom).toContainText('not saved yet');

    // A built-in view unpinned: it leaves the rows for "More views".
    await views(page).getByRole('button', { name: 'Options for view Recent conversations' }).click();
    await page.getByRole('menu', { name: 'Options for view Recent conversations' }).getByRole('menuitem', { name: 'Unpin from the sidebar' }).click();
    await expect(views(page).getByRole('link', { name: 'Recent conversations' })).toHaveCount(0);

    // Refused before anything is queued, in the server's words.
    dialog = await addViewDialog(page);
    await dialog.getByRole('textbox', { name: 'View (its link after #)' }).fill('  ');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Nowhere');
    await dialog.getByRole('button', { name: 'Add view' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Fragment cannot be blank.');
    await dialog.getByRole('textbox', { name: 'View (its link after #)' }).fill('narrow/is/starred');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('My stars');
    await dialog.getByRole('button', { name: 'Add view' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Built-in views cannot have a custom name.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await views(page).getByRole('button', { name: 'More views' }).click();
    const more = page.getByRole('menu', { name: 'More views' });
    await expect(more.getByRole('menuitem', { name: 'Recent conversations (not saved yet)' })).toBeVisible();
    await lightAndDark(page, testInfo, '88-navigation-views-offline');
    await page.keyboard.press('Escape');

    // Both pending in the outbox panel, in words.
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows.filter({ hasText: 'Add the view “Danish affairs”' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Unpin the view #recent' })).toHaveCount(1);
    await panel.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    // Two entities, sent side by side: the server's order between the two new ones may be either.
    const byFragment = (vs: Array<{ fragment: string }>) => [...vs].sort((x, y) => x.fragment.localeCompare(y.fragment));
    await expect.poll(async () => byFragment(await serverViews(hamlet)), { timeout: 30_000 }).toEqual(
      byFragment([...before, { fragment, is_pinned: true, name: 'Danish affairs' }, { fragment: 'recent', is_pinned: false, name: null }]),
    );
    await expect(views(page).getByText('not saved yet')).toHaveCount(0);

    // Online: rename, delete, pin again; each verified at the server.
    await views(page).getByRole('button', { name: 'Options for view Danish affairs' }).click();
    await page.getByRole('menuitem', { name: 'Rename view…' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename view Danish affairs' });
    await rename.getByRole('textbox', { name: 'New name' }).fill('Danes');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(views(page).getByRole('link', { name: 'Danes' })).toBeVisible();
    await expect.poll(async () => (await serverViews(hamlet)).find((v) => v.fragment === fragment)?.name, { timeout: 30_000 }).toBe('Danes');
    await views(page).getByRole('button', { name: 'More views' }).click();
    await lightAndDark(page, testInfo, '89-navigation-views-more');
    await page.getByRole('menu', { name: 'More views' }).getByRole('menuitem', { name: 'Pin Recent conversations' }).click();
    await expect(views(page).getByRole('link', { name: 'Recent conversations' })).toBeVisible();
    await expect.poll(async () => (await serverViews(hamlet)).find((v) => v.fragment === 'recent')?.is_pinned, { timeout: 30_000 }).toBe(true);

    await views(page).getByRole('button', { name: 'Options for view Danes' }).click();
    await page.getByRole('menuitem', { name: 'Delete view…' }).click();
    await page.getByRole('dialog', { name: 'Delete view Danes' }).getByRole('button', { name: 'Delete view' }).click();
    await expect(views(page).getByRole('link', { name: 'Danes' })).toHaveCount(0);
    await expect.poll(async () => (await serverViews(hamlet)).map((v) => v.fragment).sort(), { timeout: 30_000 }).toEqual([...before.map((v) => v.fragment), 'recent'].sort());
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
