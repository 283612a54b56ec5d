/**
 * Saved snippets while the reference server PROCESS is stopped (tracker "renderer part 3"): one
 * created, then edited, and the demo one deleted, all shown at once as not sent yet; the server
 * starts and the server's list is exactly what the user left (read back over REST).
 */
import { expect, test } from '@playwright/test';
import { openRealWorld } from './real-world.js';

test('offline: create, edit and delete saved snippets; they land once the server is back', async ({ page }) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'desdemona@example.com');
  try {
    const desdemona = await world.rest('desdemona@example.com');
    const snippets = async () => ((await desdemona.call('GET', '/saved_snippets'))['saved_snippets'] as Array<{ title: string; content: string }>).map((s) => [s.title, s.content]);
    expect((await snippets()).map(([t]) => t)).toContain('Release reminder');

    await world.stopServer();
    await page.getByRole('link', { name: 'general', exact: true }).first().click();
    await page.getByRole('button', { name: 'Snippets', exact: true }).click();
    await page.getByRole('dialog', { name: 'Insert a saved snippet' }).getByRole('button', { name: 'Manage snippets' }).click();
    const manager = page.getByRole('dialog', { name: 'Saved snippets' });
    await manager.getByRole('textbox', { name: 'Title' }).fill('Written offline');
    await manager.getByRole('textbox', { name: 'Text' }).fill('Made on the train.');
    await manager.getByRole('button', { name: 'Create snippet' }).click();
    const row = manager.getByRole('listitem').filter({ hasText: 'Written offline' });
    await expect(row.locator('.badge')).toHaveText('not sent yet');
    await manager.getByRole('button', { name: 'Edit Written offline' }).click();
    await manager.getByRole('textbox', { name: 'Text' }).fill('Made on the train, then changed.');
    await manager.getByRole('button', { name: 'Save snippet' }).click();
    await expect(manager.getByText('Made on the train, then changed.')).toBeVisible();
    await manager.getByRole('button', { name: 'Delete Release reminder' }).click();
    await manager.getByRole('button', { name: 'Confirm deleting Release reminder' }).click();
    await expect(manager.getByText('Release reminder')).toHaveCount(0);
    await manager.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('status', { name: 'Outbox' })).toContainText('pending');

    await world.startServer();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 60_000 });
    const after = await snippets();
    expect(after.filter(([t]) => t === 'Written offline')).toEqual([['Written offline', 'Made on the train, then changed.']]);
    expect(after.map(([t]) => t)).not.toContain('Release reminder');
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
