/**
 * People (issue #21 item 3): the user card from a message's sender (role, email, local time,
 * status, presence; Escape closes it and gives the focus back; "View messages" opens the sender
 * narrow, "Send a direct message" the DM conversation with its composer focused), the user list
 * in Zulip's buddy-list order (active first, then by name) with a presence dot and its words,
 * searchable, and the app's own presence reaching the server. Screenshots 115-*.
 */
import { expect, test } from '@playwright/test';
import { lightAndDark, messageList, openTopic, sidebar } from './fixtures.js';
import { openRealWorld } from './real-world.js';

const OTHELLO = 'Othello, the Moor of Venice';

test('user card from a message sender, the user list by presence, own presence reported', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const ids: Record<string, number> = {};
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const othello = await rest('othello@example.com');
    ids['othello'] = (await othello.call('GET', '/users/me'))['user_id'] as number;
    ids['message'] = (await othello.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'the card', content: 'Look at my card.' }))['id'] as number;
    await othello.call('POST', '/users/me/presence', { status: 'active', ping_only: 'true' });
    await othello.call('POST', '/users/me/status', { status_text: 'at the theatre', emoji_name: 'performing_arts', emoji_code: '1f3ad', reaction_type: 'unicode_emoji' });
  });
  try {
    await openTopic(page, 'Verona', 'the card');
    const msg = messageList(page).locator(`li.message[data-message-id="${ids['message']}"]`);
    const senderButton = msg.locator('.message-meta').getByRole('button', { name: `${OTHELLO}: show the user card` });
    await senderButton.click();
    const card = page.getByRole('dialog', { name: `User card: ${OTHELLO}` });
    await expect(card).toBeVisible();
    await expect(card.getByRole('heading', { name: OTHELLO })).toBeVisible();
    await expect(card).toContainText('Member');
    await expect(card).toContainText('othello@example.com');
    await expect(card).toContainText(/\d{1,2}:\d{2}( [AP]M)? local time/);
    await expect(card).toContainText('🎭 at the theatre');
    await expect(card).toContainText('Active now');
    await expect(card.getByRole('button', { name: 'Mute' })).toBeVisible();
    await lightAndDark(page, testInfo, '115-user-card');
    await page.keyboard.press('Escape');
    await expect(card).toHaveCount(0);
    await expect(senderButton).toBeFocused();

    // The user list: the app reported King Hamlet active, Othello is active, the rest offline.
    const list = sidebar(page).getByRole('list', { name: 'User list' });
    const rows = list.getByRole('listitem');
    await expect(rows.first()).toHaveAttribute('data-presence', 'active', { timeout: 20_000 });
    await expect(rows).toHaveText(['King Hamlet', OTHELLO + 'at the theatre', "Cordelia, Lear's daughter", 'Desdemona', 'Iago', 'Polonius', 'Shiva'].map((t) => new RegExp(`^${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
    await expect(rows.nth(1)).toHaveAttribute('data-presence', 'active');
    await expect(rows.nth(2)).toHaveAttribute('data-presence', 'offline');
    await expect(list.getByRole('button', { name: `${OTHELLO}: show the user card` })).toHaveAccessibleDescription('Active now');
    await expect(list.getByRole('button', { name: 'Iago: show the user card' })).toHaveAccessibleDescription('Offline');
    await list.getByRole('button', { name: 'Iago: show the user card' }).scrollIntoViewIfNeeded();
    await lightAndDark(page, testInfo, '115-user-list');

    // The app's own presence reached the server.
    const othello = await world.rest('othello@example.com');
    const own = (await othello.call('GET', '/users/hamlet@example.com/presence'))['presence'] as { aggregated?: { status: string } };
    expect(own.aggregated?.status).toBe('active');

    // Search, open the card from the list, View messages: the sender narrow.
    await sidebar(page).getByRole('searchbox', { name: 'Search people' }).fill('oth');
    await expect(rows).toHaveCount(1);
    await list.getByRole('button', { name: `${OTHELLO}: show the user card` }).click();
    await card.getByRole('button', { name: 'View messages' }).click();
    await expect(page).toHaveURL(new RegExp(`#narrow/sender/${ids['othello']}-`));
    await expect(msg).toContainText('Look at my card.');

    // Send a direct message from the card: the DM conversation opens with its composer focused.
    await msg.locator('.message-meta').getByRole('button', { name: `${OTHELLO}: show the user card` }).click();
    await card.getByRole('button', { name: 'Send a direct message' }).click();
    await expect(page).toHaveURL(new RegExp(`#narrow/dm/${ids['othello']}-`));
    const text = page.getByRole('textbox', { name: `Message to ${OTHELLO}` });
    await expect(text).toBeFocused();
    await text.fill('Your card is a fine card.');
    await text.press('Control+Enter');
    const hamlet = await world.rest('hamlet@example.com');
    await expect.poll(async () => {
      const got = (await hamlet.call('GET', '/messages', { narrow: JSON.stringify([{ operator: 'dm', operand: [ids['othello']] }]), anchor: 'newest', num_before: '5', num_after: '0' }))['messages'] as Array<{ content: string }>;
      return got.map((m) => m.content).join('\n');
    }, { timeout: 20_000 }).toContain('Your card is a fine card.');

    // The narrow window (under 700 px): the list is in the sidebar's overlay, and its card opens.
    await page.setViewportSize({ width: 600, height: 800 });
    await page.getByRole('button', { name: 'Sidebar' }).click();
    await sidebar(page).getByRole('searchbox', { name: 'Search people' }).fill('');
    await list.getByRole('button', { name: 'Shiva: show the user card' }).click();
    await expect(page.getByRole('dialog', { name: 'User card: Shiva' })).toContainText('Moderator');
    await expect(page.getByRole('dialog', { name: 'User card: Shiva' })).toContainText('Offline');
    await expect(page.getByRole('dialog', { name: 'User card: Shiva' })).toBeInViewport({ ratio: 1 });
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
