/**
 * Media in messages (issue #21): an image of another site (a loopback "other site") shown through
 * the realm's image proxy, a sender's uploaded avatar, an uploaded video that plays, and a link
 * preview (message_embed, its image through the proxy) that the server adds after sending; then,
 * the avatars in the user card, the user list and the @-typeahead;
 * the server PROCESS and the other site stopped and the page reloaded, all of it still shown from
 * the device's copies. The page asks no origin but its own, throughout. Screenshots light and dark
 * (120-media, 120-media-offline).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ogPage, startOtherSite } from '../server/other-site.js';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { openRealWorld, statusOf } from './real-world.js';
import { expectLoaded, upload } from './upload-helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** A short WebM (VP8) recorded from a canvas in a blank page: the test needs a real, playable video. */
async function recordWebm(page: Page): Promise<Buffer> {
  const blank = await page.context().newPage();
  try {
    const bytes: number[] = await blank.evaluate(`(async () => {
      const c = document.createElement('canvas');
      c.width = 160; c.height = 90;
      const g = c.getContext('2d');
      const rec = new MediaRecorder(c.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
      const chunks = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      let f = 0;
      const timer = setInterval(() => { g.fillStyle = 'hsl(' + (f++ * 25) + ', 70%, 45%)'; g.fillRect(0, 0, 160, 90); }, 40);
      rec.start();
      await new Promise((r) => setTimeout(r, 600));
      const stopped = new Promise((r) => (rec.onstop = r));
      rec.stop();
      await stopped;
      clearInterval(timer);
      return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
    })()`);
    return Buffer.from(bytes);
  } finally {
    await blank.close();
  }
}

/** The video has loaded at least its metadata (it can play). */
async function expectPlayable(video: Locator): Promise<void> {
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v) => (v as unknown as { readyState: number }).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
}

test('images of other sites, avatars, videos and link previews: shown from the host, offline after a reload', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const site = await startOtherSite();
  site.routes.set('/photo.png', { type: 'image/png', body: readFileSync(path.join(ROOT, 'resources', 'icons', '128x128.png')) });
  site.routes.set('/banner.png', { type: 'image/png', body: readFileSync(path.join(ROOT, 'resources', 'icons', '64x64.png')) });
  site.routes.set('/article', { type: 'text/html; charset=utf-8', body: ogPage({ title: 'Offline first', description: 'Why a chat app should keep working without a network.', image: `${site.url}/banner.png` }) });
  const webm = await recordWebm(page);

  // Every request the page makes, by origin: only the host's may appear.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/^https?:/.test(r.url())) asked.push(new URL(r.url()).origin);
  });
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const own = new URL(page.url()).origin;
    const iago = await world.rest('iago@example.com');
    await iago.call('PATCH', '/realm', { inline_url_embed_preview: 'true' });
    const clip = await upload(world.serverUrl, 'iago@example.com', 'clip.webm', webm, 'video/webm');
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'media', content: `A photo from elsewhere: ${site.url}/photo.png` });
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'media', content: `And a clip: [clip.webm](${clip})` });
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'media', content: `Worth reading: ${site.url}/article` });

    await openTopic(page, 'Verona', 'media');
    const list = messageList(page);
    const photo = list.getByRole('img', { name: 'photo.png' });
    const avatar = list.locator('.avatar-button .avatar-img').first();
    const video = list.locator('video[aria-label="clip.webm"]');
    const embed = list.locator('.message_embed');
    const check = async () => {
      await expectLoaded(photo);
      await expect(photo).toHaveAttribute('src', /^\/uploads\/external_content\/[0-9a-f]{40}\/[0-9a-f]+\?k=/);
      await expectLoaded(avatar);
      await expect(avatar).toHaveAttribute('src', /^\/uploads\/user_avatars\/2\/[0-9a-f]{40}\.png\?k=/);
      await expectPlayable(video);
      // The preview arrives after sending, as a rendering-only update.
      await expect(embed.getByRole('link', { name: 'Offline first' })).toBeVisible({ timeout: 20_000 });
      await expect(embed).toContainText('Why a chat app should keep working without a network.');
      await expectLoaded(embed.locator('img'));
    };
    await check();
    // The user card shows the avatar too.
    await avatar.click();
    const card = page.getByRole('dialog', { name: 'User card: Iago' });
    await expectLoaded(card.locator('.avatar-img'));
    await page.keyboard.press('Escape');
    await expect(card).toBeHidden();
    // The user list too ("With avatar and status", the sandbox's user_list_style); initials for one without.
    const people = page.getByRole('list', { name: 'User list' });
    await expectLoaded(people.getByRole('listitem').filter({ hasText: 'Iago' }).locator('.avatar-img'));
    await expect(people.getByRole('listitem').filter({ hasText: 'King Hamlet' }).locator('.people-avatar')).toHaveAttribute('data-initials', 'KH');
    await expect(people.getByRole('listitem').filter({ hasText: 'King Hamlet' }).locator('.avatar-img')).toHaveCount(0);
    // And the composer's @-typeahead.
    const input = page.getByRole('textbox', { name: 'Message to media' });
    await input.pressSequentially('@Iag');
    await expectLoaded(page.getByRole('listbox', { name: 'People and groups suggestions' }).getByRole('option', { name: /^Iago/ }).locator('.avatar-img'));
    await input.fill('');
    await embed.scrollIntoViewIfNeeded();
    await lightAndDark(page, testInfo, '120-media');

    // Offline: the server process and the other site gone; reloaded, everything comes from the device.
    await world.stopServer();
    await site.close();
    await page.reload();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    await check();
    await lightAndDark(page, testInfo, '120-media-offline');

    expect(new Set(asked)).toEqual(new Set([own]));
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
    await site.close();
  }
});
