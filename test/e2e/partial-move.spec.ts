/**
 * The partial move offer (tracker "renderer part 2"): a member renames a topic whose older messages
 * are past the realm's move limit, lowered by an administrator in another client. The server
 * refuses (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED, with the first message the member may move); the app
 * marks the move as not saved and offers to move the part the member may move, as Zulip web does.
 * Taken, the recent messages move and the old ones stay, read back over REST. The reference server
 * runs as its own process (the same world as the outage test).
 */
import { expect, test } from '@playwright/test';
import { messageList, screenshot, sidebar } from './fixtures.js';
import { openRealWorld } from './real-world.js';

test('a rename past the move limit offers to move the messages the member may move', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const iago = await rest('iago@example.com');
    // Members may move messages of the last 10 minutes only (the demo topic's history is older).
    await iago.call('PATCH', '/realm', { move_messages_within_stream_limit_seconds: '600' });
  });
  try {
    const hamlet = await world.rest('hamlet@example.com');
    const topicNarrow = (topic: string) => [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: topic }];
    const before = await hamlet.messages(topicNarrow('ghost sightings'));
    expect(before.length).toBeGreaterThan(0);
    expect(Date.now() / 1000 - Math.max(...before.map((m) => m.timestamp))).toBeGreaterThan(3600);
    const recent: number[] = [];
    for (const text of ['Seen again at midnight.', 'And once more at one.']) {
      const r = await hamlet.call('POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'ghost sightings', content: text });
      recent.push(r['id'] as number);
    }

    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'Denmark', exact: true }).click();
    // The two new messages put the topic first; click once the list has settled there.
    const topics = nav.getByRole('list', { name: 'Topics in Denmark' });
    await expect(topics.getByRole('link').first()).toHaveText('ghost sightings');
    await topics.getByRole('link', { name: 'ghost sightings', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Denmark › ghost sightings' })).toBeVisible();
    await expect(messageList(page)).toContainText('And once more at one.');

    await page.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Actions for topic ghost sightings' }).click();
    await page.getByRole('menu', { name: 'Actions for topic ghost sightings' }).getByRole('menuitem', { name: 'Rename topic…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename topic' });
    await dialog.getByRole('textbox', { name: 'New topic' }).fill('recent sightings');
    await expect(dialog.getByRole('combobox', { name: 'Which messages should be moved?' })).toHaveValue('change_all');
    await dialog.getByRole('button', { name: 'Rename' }).click();

    // Refused in the server's words, with the offer for the part that may move.
    const failed = messageList(page).getByRole('alert').filter({ hasText: 'Move not saved' });
    await expect(failed).toBeVisible({ timeout: 30_000 });
    await expect(failed).toContainText(`most recent messages in this topic`);
    const offer = failed.getByRole('button', { name: `Move the 2 of ${before.length + 2} messages you may move` });
    await expect(offer).toBeVisible();
    await screenshot(page, testInfo, '62-partial-move-offer');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '62-partial-move-offer-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await offer.click();

    // The two recent messages moved (the notification bot says so there); the older ones stayed.
    const moved = async () => (await hamlet.messages(topicNarrow('recent sightings'))).filter((m) => m.sender_email === 'hamlet@example.com').map((m) => m.id);
    await expect.poll(async () => (await moved()).sort((a, b) => a - b), { timeout: 30_000 }).toEqual(recent);
    const stayed = await hamlet.messages(topicNarrow('ghost sightings'));
    expect(stayed.map((m) => m.id).sort((a, b) => a - b)).toEqual(before.map((m) => m.id).sort((a, b) => a - b));
    await expect(messageList(page).getByRole('alert').filter({ hasText: 'Move not saved' })).toHaveCount(0);
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0); // nothing left queued or failed
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
