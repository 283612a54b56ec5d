/**
 * Images uploaded to the realm, shown and kept for offline viewing through the host (never loaded
 * by the page from the realm: the CSP's img-src is 'self'). Another user uploads two images over
 * REST and posts them: one in the topic hamlet has open, one in a channel he never opens, plus an
 * image from another site. The open one is shown (from the host's `/uploads` route), the other
 * site's image is a link. Then the server PROCESS stops and the page reloads: the image seen is
 * still shown, from the device; the one never seen shows an accessible placeholder instead of a
 * broken icon; and the page logged no error at all (no failed image load either).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, lightAndDark, messageList, openTopic, test } from './fixtures.js';
import { expectLoaded, upload } from './upload-helpers.js';
import { openRealWorld, statusOf } from './real-world.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PICTURE = readFileSync(path.join(ROOT, 'resources', 'icons', '256x256.png'));
const OTHER = readFileSync(path.join(ROOT, 'resources', 'icons', '128x128.png'));

test('an uploaded image is shown, and still shown offline after a reload; one never seen is a placeholder', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  // Every console error, failed image loads included (real-world's problems() lets those pass).
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const iago = await world.rest('iago@example.com');
    const sunset = await upload(world.serverUrl, 'iago@example.com', 'sunset.png', PICTURE);
    const stored = await upload(world.serverUrl, 'iago@example.com', 'archive.png', OTHER);
    expect(sunset).toMatch(/^\/user_uploads\/\d+\//);

    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'photos from the balcony', content: `The view tonight: [sunset.png](${sunset})` });
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'photos from the balcony', content: 'And one from elsewhere: ![a chart](https://images.example/chart.png)' });
    await openTopic(page, 'Verona', 'photos from the balcony');
    // Posted where hamlet never looks while online: it reaches his device, its image does not.
    await iago.call('POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'old photos', content: `From the archive: [archive.png](${stored})` });

    const list = messageList(page);
    const picture = list.getByRole('img', { name: 'sunset.png' });
    await expectLoaded(picture);
    // From the host's route, never from the realm, with the tab's uploads key (no cookie).
    expect(await picture.getAttribute('src')).toMatch(new RegExp(`^/uploads${sunset.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?k=[0-9a-f]{64}$`));
    // The other site's image is not loaded: it is a link to it.
    await expect(list.getByRole('link', { name: 'a chart' })).toHaveAttribute('href', 'https://images.example/chart.png');
    await expect(list.locator('img[src^="https://"]')).toHaveCount(0);
    await lightAndDark(page, testInfo, '36-uploaded-image');

    // The server PROCESS goes away; the page reloads on the device's copy.
    await world.stopServer();
    await page.reload();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Verona › photos from the balcony' })).toBeVisible();
    await expectLoaded(messageList(page).getByRole('img', { name: 'sunset.png' }));
    await lightAndDark(page, testInfo, '37-uploaded-image-offline');

    await openTopic(page, 'Denmark', 'old photos');
    const msg = messageList(page).locator('li.message').filter({ hasText: 'From the archive' });
    await expect(msg.getByRole('img', { name: 'Image not available offline' })).toBeVisible();
    await expect(msg.locator('.message-content img')).toHaveCount(0);
    await lightAndDark(page, testInfo, '38-image-not-available-offline');

    expect(world.problems()).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await world.close();
  }
});
