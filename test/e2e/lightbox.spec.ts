/**
 * The image viewer (issue #21 item 1): a click on an uploaded image opens it fitted in a dialog,
 * with Previous / Next through the view's images, zoom, and Zulip's keys (← → + − 0 Esc); after a
 * reload with the server PROCESS stopped it still opens, from the device's copy. Screenshots light
 * and dark (116-lightbox).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { openRealWorld, statusOf } from './real-world.js';
import { expectLoaded, upload } from './upload-helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

test('an uploaded image opens in the viewer: step, zoom, keys, and offline after a reload', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const iago = await world.rest('iago@example.com');
    const sunset = await upload(world.serverUrl, 'iago@example.com', 'sunset.png', readFileSync(path.join(ROOT, 'resources', 'icons', '256x256.png')));
    const garden = await upload(world.serverUrl, 'iago@example.com', 'garden.png', readFileSync(path.join(ROOT, 'resources', 'icons', '128x128.png')));
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'gallery', content: `First: [sunset.png](${sunset})` });
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'gallery', content: `Second: [garden.png](${garden})` });
    await openTopic(page, 'Verona', 'gallery');
    const list = messageList(page);
    await expectLoaded(list.getByRole('img', { name: 'sunset.png' }));
    await expectLoaded(list.getByRole('img', { name: 'garden.png' }));

    await list.getByRole('img', { name: 'sunset.png' }).click();
    const viewer = page.getByRole('dialog', { name: 'sunset.png (1 of 2)' });
    await expectLoaded(viewer.getByRole('img', { name: 'sunset.png' }));
    await viewer.getByRole('button', { name: 'Next image' }).click();
    await expect(page.getByRole('dialog', { name: 'garden.png (2 of 2)' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(viewer).toBeVisible();
    await page.keyboard.press('+');
    await expect(viewer.getByRole('button', { name: '150%, fit to window' })).toBeVisible();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect(viewer.getByRole('button', { name: '200%, fit to window' })).toBeVisible();
    await page.keyboard.press('0');
    await expect(viewer.getByRole('button', { name: '100%, fit to window' })).toBeVisible();
    await lightAndDark(page, testInfo, '116-lightbox');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Offline after a reload: the viewer opens on the device's copy.
    await world.stopServer();
    await page.reload();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    await messageList(page).getByRole('img', { name: 'garden.png' }).click();
    await expectLoaded(page.getByRole('dialog', { name: 'garden.png (2 of 2)' }).getByRole('img', { name: 'garden.png' }));
    await page.keyboard.press('ArrowLeft');
    await expectLoaded(page.getByRole('dialog', { name: 'sunset.png (1 of 2)' }).getByRole('img', { name: 'sunset.png' }));
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
