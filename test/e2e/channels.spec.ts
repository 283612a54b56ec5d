/**
 * The channels screen (#channels) against the reference server as its own process:
 *   1. hamlet browses all channels, and with the server process stopped subscribes to Scotland and
 *      unsubscribes from Verona: both show at once, "not saved yet", and pending in the outbox
 *      panel; the server starts again and both land, verified over REST.
 *   2. iago (administrator) creates a private channel with its settings, then subscribes othello
 *      from the channel's page; the server has both (REST).
 *   3. With the realm's rule set to administrators (by iago over REST), hamlet's attempt to
 *      subscribe othello shows the server's words, and nothing changed on the server.
 * Screenshots 75–79, light and dark.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { screenshot } from './fixtures.js';
import { openRealWorld, type Rest } from './real-world.js';

const channelsScreen = (page: Page) => page.getByRole('region', { name: 'Channels' });

async function both(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(page, testInfo, name, { shownDarkToo: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, testInfo, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

const subscriptionNames = async (rest: Rest) => ((await rest.call('GET', '/users/me/subscriptions'))['subscriptions'] as Array<{ name: string }>).map((s) => s.name);
const streamId = async (rest: Rest, name: string) => {
  const streams = (await rest.call('GET', '/streams', { include_all: 'true' }))['streams'] as Array<{ stream_id: number; name: string; invite_only: boolean }>;
  const s = streams.find((x) => x.name === name);
  if (!s) throw new Error(`no channel ${name}`);
  return s;
};
const members = async (rest: Rest, id: number) => (await rest.call('GET', `/streams/${id}/members`))['subscribers'] as number[];
const userId = async (rest: Rest, email: string) => {
  const users = (await rest.call('GET', '/users'))['members'] as Array<{ user_id: number; email: string }>;
  return users.find((u) => u.email === email)!.user_id;
};

test('browse all channels; subscribe and unsubscribe with the server stopped, then they land', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    await page.getByRole('list', { name: 'Manage' }).getByRole('link', { name: 'Channels' }).click();
    const screen = channelsScreen(page);
    const subscribed = screen.getByRole('list', { name: 'Subscribed channels' });
    await expect(subscribed.getByRole('listitem', { name: 'Verona' })).toBeVisible();
    await expect(subscribed.getByRole('listitem', { name: 'Scotland' })).toHaveCount(0);

    await screen.getByRole('link', { name: 'All channels' }).click();
    const all = screen.getByRole('list', { name: 'All channels' });
    for (const name of ['core team', 'Denmark', 'general', 'Scotland', 'Verona']) await expect(all.getByRole('listitem', { name })).toBeVisible();
    const scotland = all.getByRole('listitem', { name: 'Scotland' });
    const verona = all.getByRole('listitem', { name: 'Verona' });
    await expect(all.getByRole('listitem', { name: 'core team' })).toContainText('Private');
    await expect(scotland).toContainText('Heath and castles.');
    await both(page, testInfo, '75-channels-all');

    await world.stopServer();
    await scotland.getByRole('button', { name: 'Subscribe to Scotland' }).click();
    await verona.getByRole('button', { name: 'Unsubscribe from Verona' }).click();
    // Shown at once, marked as not on the server yet.
    await expect(scotland.getByRole('button', { name: 'Unsubscribe from Scotland' })).toBeVisible();
    await expect(scotland).toContainText('not saved yet');
    await expect(verona.getByRole('button', { name: 'Subscribe to Verona' })).toBeVisible();
    await expect(verona).toContainText('not saved yet');
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('2 pending');
    await both(page, testInfo, '76-channels-offline');

    await page.getByRole('button', { name: /^Open the outbox/ }).click();
    const rows = page.getByRole('dialog', { name: 'Outbox' }).getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Subscribe to #Scotland');
    await expect(rows.nth(1)).toContainText('Unsubscribe from #Verona');
    await page.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    await expect(scotland).not.toContainText('not saved yet');
    await expect(verona).not.toContainText('not saved yet');
    const mine = await subscriptionNames(await world.rest('hamlet@example.com'));
    expect(mine).toContain('Scotland');
    expect(mine).not.toContain('Verona');
    await screen.getByRole('link', { name: 'Subscribed', exact: true }).click();
    await expect(subscribed.getByRole('listitem', { name: 'Scotland' })).toBeVisible();
    await expect(subscribed.getByRole('listitem', { name: 'Verona' })).toHaveCount(0);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

test('an administrator creates a private channel and subscribes othello from its page', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'iago@example.com');
  try {
    await page.goto(`${new URL(page.url()).origin}/#channels/new`);
    const form = page.getByRole('form', { name: 'Create a channel' });
    await form.getByLabel('Name').fill('war council');
    await form.getByLabel('Description').fill('Plans for **Cyprus**.');
    await form.getByRole('radio', { name: /^Private/ }).check();
    await form.getByRole('checkbox', { name: 'New subscribers can see messages sent before they joined' }).check();
    await form.getByLabel('Topics').selectOption({ label: 'Every message needs a topic' });
    await form.getByLabel('Who can add subscribers').selectOption({ label: 'Administrators' });
    await both(page, testInfo, '77-channels-create');
    await form.getByRole('button', { name: 'Create channel' }).click();

    // Its page opens once the server's event lists it.
    const screen = channelsScreen(page);
    await expect(screen.getByRole('heading', { name: '#war council' })).toBeVisible({ timeout: 30_000 });
    await expect(screen).toContainText('Private: only subscribers see it');
    await expect(screen).toContainText('They see the whole history');
    await expect(screen).toContainText('Every message needs a topic');
    const subscribers = screen.getByRole('list', { name: 'Subscribers of war council' });
    await expect(subscribers).toContainText('Iago');

    const add = screen.getByRole('form', { name: 'Add subscribers' });
    await add.getByRole('searchbox', { name: 'Find people to subscribe' }).fill('othello');
    await add.getByRole('checkbox', { name: 'Othello, the Moor of Venice' }).check();
    await add.getByRole('button', { name: 'Subscribe them' }).click();
    await expect(add.getByRole('status', { name: 'Subscribed' })).toHaveText('#war council: subscribed Othello, the Moor of Venice.');
    await expect(subscribers).toContainText('Othello, the Moor of Venice');
    await both(page, testInfo, '78-channel-page');

    const iago = await world.rest('iago@example.com');
    const channel = await streamId(iago, 'war council');
    expect(channel.invite_only).toBe(true);
    expect(await members(iago, channel.stream_id)).toEqual([await userId(iago, 'iago@example.com'), await userId(iago, 'othello@example.com')].sort((a, b) => a - b));
    expect(await subscriptionNames(await world.rest('othello@example.com'))).toContain('war council');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

test("a member the realm does not let subscribe others sees the server's words", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const iago = await rest('iago@example.com');
    const groups = (await iago.call('GET', '/user_groups'))['user_groups'] as Array<{ id: number; name: string }>;
    const admins = groups.find((g) => g.name === 'role:administrators')!.id;
    await iago.call('PATCH', '/realm', { can_add_subscribers_group: JSON.stringify({ new: admins }) });
  });
  try {
    await page.getByRole('list', { name: 'Manage' }).getByRole('link', { name: 'Channels' }).click();
    const screen = channelsScreen(page);
    await screen.getByRole('list', { name: 'Subscribed channels' }).getByRole('link', { name: '#Denmark' }).click();
    await expect(screen.getByRole('heading', { name: '#Denmark' })).toBeVisible();
    const add = screen.getByRole('form', { name: 'Add subscribers' });
    await expect(add).toContainText('do not let you add subscribers to this channel; the server decides');
    await add.getByRole('checkbox', { name: 'Othello, the Moor of Venice' }).check();
    await add.getByRole('button', { name: 'Subscribe them' }).click();
    await expect(add.getByRole('alert')).toHaveText('The server refused: Insufficient permission');
    await both(page, testInfo, '79-channels-denied');

    const iago = await world.rest('iago@example.com');
    const denmark = await streamId(iago, 'Denmark');
    expect(await members(iago, denmark.stream_id)).not.toContain(await userId(iago, 'othello@example.com'));
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
