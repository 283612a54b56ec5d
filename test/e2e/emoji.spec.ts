/**
 * Emoji: the full set in the reaction picker, by category (its tab) and by search, "Recently used"
 * first afterwards, and the realm's custom emoji as images: `:shipit:` in a message and
 * `:party_parrot:` as a reaction, both loaded through the host (which fetches them with the
 * account's credentials). The server agrees on each reaction (read back over REST). Then the
 * server PROCESS stops and the page reloads: both images still show, from the device, and so does
 * one added while the app was live but never shown (the engine fetched it ahead).
 */
import { expect, lightAndDark, messageList, openTopic, test } from './fixtures.js';
import { openRealWorld, statusOf } from './real-world.js';
import { discPng } from '../../server/demo/emoji-images.js';
import { expectLoaded } from './upload-helpers.js';

/** Add a custom emoji as `email` (Zulip's POST /realm/emoji/{name}, multipart). */
async function addCustomEmoji(serverUrl: string, email: string, name: string, png: Buffer): Promise<void> {
  const key = (await (await fetch(`${serverUrl}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) })).json()) as { api_key: string };
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${name}.png`);
  const res = await fetch(`${serverUrl}/api/v1/realm/emoji/${name}`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}` }, body: fd });
  expect(((await res.json()) as { result: string }).result).toBe('success');
}

test('react by category and by search, recently used first, custom emoji as images, still shown offline', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const iago = await world.rest('iago@example.com');
    const sent = await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'emoji party', content: 'Ship it :shipit: today' });
    const id = sent['id'] as number;
    const serverReactions = async () => ((await iago.call('GET', `/messages/${id}`))['message'] as { reactions: Array<{ emoji_name: string; emoji_code: string; reaction_type: string }> }).reactions;
    await openTopic(page, 'Verona', 'emoji party');
    const item = messageList(page).locator(`li.message[data-message-id="${id}"]`);

    // The custom emoji in the message: Zulip's <img class="emoji">, loaded from the host's route.
    const shipit = item.getByRole('img', { name: ':shipit:' });
    await expectLoaded(shipit);
    expect(await shipit.getAttribute('src')).toMatch(/^\/uploads\/user_avatars\/2\/emoji\/images\/1\.png\?k=[0-9a-f]{64}$/);

    // By category: the tab shows its section; the octopus is in it.
    await item.hover();
    await item.getByRole('button', { name: 'Add emoji reaction' }).click();
    const picker = page.getByRole('dialog', { name: 'Emoji picker' });
    const animals = picker.getByRole('tab', { name: 'Animals & Nature' });
    await animals.click();
    await expect(animals).toHaveAttribute('aria-selected', 'true');
    await picker.getByRole('group', { name: 'Animals & Nature' }).getByRole('button', { name: 'octopus', exact: true }).click();
    const reactions = item.getByRole('group', { name: 'Reactions' });
    await expect(reactions.getByRole('button', { name: 'octopus: 1, you' })).toBeVisible();

    // By search, over the full set (not in the old built-in list): Enter picks the best match.
    await reactions.getByRole('button', { name: 'Add reaction' }).click();
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('avoc');
    await expect(picker.getByRole('group', { name: 'Matching emoji' }).getByRole('button').first()).toHaveAccessibleName('avocado');
    await picker.getByRole('searchbox', { name: 'Search emoji' }).press('Enter');
    await expect(reactions.getByRole('button', { name: 'avocado: 1, you' })).toBeVisible();

    // Recently used comes first, newest first; the realm's emoji have their own tab, last.
    await reactions.getByRole('button', { name: 'Add reaction' }).click();
    const tabs = picker.getByRole('tab');
    await expect(tabs.first()).toHaveAccessibleName('Recently used');
    await expect(tabs.last()).toHaveAccessibleName('Custom');
    const recent = picker.getByRole('group', { name: 'Recently used' }).getByRole('button');
    await expect.poll(() => recent.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual(['avocado', 'octopus']);
    // Both reactions are the user's: marked chosen in the picker.
    await expect(recent.first()).toHaveAttribute('aria-pressed', 'true');

    // The tabs by keyboard: Right moves to the next category, End to the last (the realm's).
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(1)).toBeFocused();
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    // A custom emoji from its category: an image in the picker and on the chip.
    await page.keyboard.press('End');
    await expect(picker.getByRole('tab', { name: 'Custom' })).toBeFocused();
    await expect(picker.getByRole('tab', { name: 'Custom' })).toHaveAttribute('aria-selected', 'true');
    const customGroup = picker.getByRole('group', { name: 'Custom' });
    await expectLoaded(customGroup.getByRole('button', { name: 'party parrot' }).locator('img'));
    await lightAndDark(page, testInfo, '112-emoji-picker');
    await customGroup.getByRole('button', { name: 'party parrot' }).click();
    const parrot = reactions.getByRole('button', { name: 'party parrot: 1, you' });
    await expectLoaded(parrot.locator('img'));
    await expect
      .poll(serverReactions)
      .toEqual([
        expect.objectContaining({ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }),
        expect.objectContaining({ emoji_name: 'avocado', emoji_code: '1f951', reaction_type: 'unicode_emoji' }),
        expect.objectContaining({ emoji_name: 'party_parrot', emoji_code: '2', reaction_type: 'realm_emoji' }),
      ]);
    await lightAndDark(page, testInfo, '112-emoji-reactions');

    // Added while the app is live and never shown online: the engine fetches its image ahead. The
    // message after it shows the app has had the event (events arrive in order).
    await addCustomEmoji(world.serverUrl, 'iago@example.com', 'yorick', discPng([0x55, 0x44, 0x99]));
    await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'emoji party', content: 'Alas, poor Yorick' });
    await expect(messageList(page).getByText('Alas, poor Yorick')).toBeVisible();

    // The server PROCESS goes away; the page reloads on the device's copies of both images.
    await world.stopServer();
    await page.reload();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    const offlineItem = messageList(page).locator(`li.message[data-message-id="${id}"]`);
    await expectLoaded(offlineItem.getByRole('img', { name: ':shipit:' }));
    await expectLoaded(offlineItem.getByRole('button', { name: 'party parrot: 1, you' }).locator('img'));
    await lightAndDark(page, testInfo, '112-emoji-offline');
    // The picker's custom emoji too, the one never shown online included.
    await offlineItem.getByRole('group', { name: 'Reactions' }).getByRole('button', { name: 'Add reaction' }).click();
    await picker.getByRole('tab', { name: 'Custom' }).click();
    await expectLoaded(picker.getByRole('group', { name: 'Custom' }).getByRole('button', { name: 'yorick' }).locator('img'));
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
