/**
 * The queued operations on messages and topics, each made while the reference server PROCESS is
 * stopped (tracker "renderer part 2"): a reaction, a topic renamed with all its messages, a topic
 * resolved, a topic moved to another channel, a topic followed. Each shows at once and waits in the
 * outbox; the server starts, and each is there exactly once, read back over REST.
 */
import { expect, test, type Page } from '@playwright/test';
import { messageList } from './fixtures.js';
import { openRealWorld } from './real-world.js';

/** Open a topic by its Zulip fragment (as a link would), and wait for its heading. */
async function goToTopic(page: Page, channelId: number, channel: string, topic: string): Promise<void> {
  const fragment = `#narrow/channel/${channelId}-${channel}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;
  await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), fragment);
  await expect(page.getByRole('heading', { level: 1, name: `${channel} › ${topic}` })).toBeVisible();
}

async function topicMenu(page: Page, topic: string) {
  await page.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: `Actions for topic ${topic}` }).click();
  return page.getByRole('menu', { name: `Actions for topic ${topic}` });
}

test('offline: a reaction, a rename, a resolve, a move to another channel and a follow wait, then land once each', async ({ page }) => {
  test.setTimeout(180_000);
  const posted: Record<string, number[]> = {};
  const world = await openRealWorld(page, 'iago@example.com', async (rest) => {
    const hamlet = await rest('hamlet@example.com');
    for (const [topic, n] of [['plans A', 2], ['plans B', 1], ['plans C', 1], ['plans D', 1]] as const) {
      posted[topic] = [];
      for (let i = 1; i <= n; i++) posted[topic].push((await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic, content: `${topic}, note ${i}` }))['id'] as number);
    }
  });
  try {
    const iago = await world.rest('iago@example.com');
    const streams = (await iago.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>;
    const id = (name: string) => streams.find((s) => s.name === name)!.stream_id;
    const verona = id('Verona');
    const denmark = id('Denmark');

    await world.stopServer();

    // A reaction.
    await goToTopic(page, verona, 'Verona', 'plans A');
    const first = messageList(page).locator(`li.message[data-message-id="${posted['plans A']![0]}"]`);
    await first.hover();
    await first.getByRole('button', { name: 'Add emoji reaction' }).click();
    const picker = page.getByRole('dialog', { name: 'Emoji picker' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tad');
    await picker.getByRole('button', { name: 'tada' }).click();
    await expect(first.getByRole('group', { name: 'Reactions' }).getByRole('button', { name: 'tada: 1, you' })).toBeVisible();

    // A rename with all its messages.
    await (await topicMenu(page, 'plans A')).getByRole('menuitem', { name: 'Rename topic…' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename topic' });
    await rename.getByRole('textbox', { name: 'New topic' }).fill('plans A, renamed');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Verona › plans A, renamed' })).toBeVisible();

    // A resolve.
    await goToTopic(page, verona, 'Verona', 'plans B');
    await (await topicMenu(page, 'plans B')).getByRole('menuitem', { name: 'Mark as resolved' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Verona › ✔ plans B' })).toBeVisible();

    // A move to another channel.
    await goToTopic(page, verona, 'Verona', 'plans C');
    await (await topicMenu(page, 'plans C')).getByRole('menuitem', { name: 'Move topic…' }).click();
    const move = page.getByRole('dialog', { name: 'Move topic' });
    await move.getByRole('combobox', { name: 'New channel' }).selectOption({ label: 'Denmark' });
    await move.getByRole('button', { name: 'Move' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Denmark › plans C' })).toBeVisible();

    // A follow.
    await goToTopic(page, verona, 'Verona', 'plans D');
    await (await topicMenu(page, 'plans D')).getByRole('menuitemradio', { name: 'Follow' }).click();

    const badge = page.getByRole('status', { name: 'Outbox' });
    // The five, and the read marks of the messages seen meanwhile when one second's batch is waiting.
    await expect(badge).toHaveText(/^[56] pending$/);
    // The outbox says what each move takes along: a whole topic renamed, resolved, moved.
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows.filter({ hasText: 'Rename the topic to “plans A, renamed”' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Resolve the topic “plans B”' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Move the topic to #Denmark' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Move a message' })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    await expect(badge).toHaveCount(0, { timeout: 60_000 });

    const ids = async (channel: string, topic: string) => (await iago.messages([{ operator: 'channel', operand: channel }, { operator: 'topic', operand: topic }])).filter((m) => m.sender_email === 'hamlet@example.com').map((m) => m.id);
    expect(await ids('Verona', 'plans A, renamed')).toEqual(posted['plans A']);
    expect(await ids('Verona', 'plans A')).toEqual([]);
    expect(await ids('Verona', '✔ plans B')).toEqual(posted['plans B']);
    expect(await ids('Denmark', 'plans C')).toEqual(posted['plans C']);
    expect(await ids('Verona', 'plans C')).toEqual([]);
    const reacted = (await iago.call('GET', `/messages/${posted['plans A']![0]}`))['message'] as { reactions: Array<{ emoji_name: string; user_id: number }> };
    expect(reacted.reactions.map((r) => r.emoji_name)).toEqual(['tada']);
    const topics = ((await iago.call('POST', '/register', { fetch_event_types: '["user_topic"]' }))['user_topics'] as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>).filter((t) => t.stream_id === verona && t.topic_name === 'plans D');
    expect(topics.map((t) => t.visibility_policy)).toEqual([3]);
    expect(denmark).toBeGreaterThan(0);
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
