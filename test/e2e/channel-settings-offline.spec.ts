/**
 * A channel's personal settings made while the reference server PROCESS is stopped (issue #25
 * item 8): from the sidebar's channel menu a channel muted and another pinned and coloured, in the muted
 * channel a topic unmuted (reachable only once the channel is muted), and on the muted channel's
 * page its colour and a notification toggle. Each shows at once (dimmed, pinned first, the topic undimmed) and
 * waits in the outbox; the server starts, and each lands once, read back over REST.
 */
import { expect, test, type Page } from '@playwright/test';
import { screenshot, sidebar } from './fixtures.js';
import { openRealWorld } from './real-world.js';

const channelMenu = async (page: Page, name: string) => {
  await sidebar(page).getByRole('button', { name: `Actions for channel ${name}` }).click();
  return page.getByRole('menu', { name: `Actions for channel ${name}` });
};
const channelRow = (page: Page, name: string) => sidebar(page).locator('li.channel').filter({ has: page.getByRole('link', { name, exact: true }) });

test('offline: mute a channel, pin another, unmute a topic of the muted one, change its colour and desktop notifications; each lands once', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'iago@example.com', async (rest) => {
    await (await rest('hamlet@example.com')).call('POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'The ghost walks tonight.' });
    // Opening a channel marks nothing read: the outbox holds only the changes this test makes.
    await (await rest('iago@example.com')).call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
  });
  try {
    const iago = await world.rest('iago@example.com');
    const streams = (await iago.call('GET', '/users/me/subscriptions'))['subscriptions'] as Array<{ stream_id: number; name: string }>;
    const id = (name: string) => streams.find((s) => s.name === name)!.stream_id;
    const denmark = id('Denmark');
    const verona = id('Verona');

    await world.stopServer();

    // Mute Denmark from its menu: the row is dimmed, and the menu now offers to unmute it.
    await (await channelMenu(page, 'Denmark')).getByRole('menuitem', { name: 'Mute channel' }).click();
    await expect(channelRow(page, 'Denmark')).toHaveClass(/\bmuted\b/);
    // Dimmed by colour (the muted token), not opacity: its text keeps 4.5:1.
    await expect(channelRow(page, 'Denmark').locator('> .row .row-name')).toHaveCSS('color', 'rgb(83, 92, 107)');

    // Pin Verona: it moves to the top of the channel list.
    await (await channelMenu(page, 'Verona')).getByRole('menuitem', { name: 'Pin channel to top' }).click();
    await expect(sidebar(page).locator('li.channel').first()).toContainText('Verona');
    // And a colour from its menu's palette: the swatch takes it.
    await (await channelMenu(page, 'Verona')).getByRole('menuitemradio', { name: 'Colour cobalt' }).click();
    await expect(channelRow(page, 'Verona').locator('.swatch')).toHaveCSS('background-color', 'rgb(79, 141, 228)');
    const menu = await channelMenu(page, 'Verona');
    await expect(menu.getByRole('menuitem', { name: 'Unpin channel from top' })).toBeVisible();
    await expect(menu.getByRole('menuitemradio', { name: 'Colour cobalt' })).toHaveAttribute('aria-checked', 'true');
    await screenshot(page, testInfo, '97-channel-menu-light', { shownDarkToo: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '97-channel-menu-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);

    // In the muted channel the topic is muted too; its menu offers Unmute.
    await sidebar(page).getByRole('link', { name: 'Denmark', exact: true }).click();
    const topics = sidebar(page).getByRole('list', { name: 'Topics in Denmark' });
    const castle = topics.locator('li.topic').filter({ has: page.getByRole('link', { name: 'castle', exact: true }) });
    await expect(castle).toHaveClass(/\bmuted\b/);
    await castle.getByRole('button', { name: 'Actions for topic castle' }).click();
    await page.getByRole('menu', { name: 'Actions for topic castle' }).getByRole('menuitemradio', { name: 'Unmute' }).click();
    await expect(castle).not.toHaveClass(/\bmuted\b/);

    // The channel's page, from its menu: its personal settings, Mute checked; turn on desktop notifications.
    await (await channelMenu(page, 'Denmark')).getByRole('menuitem', { name: 'Channel settings (colour, notifications)' }).click();
    const personal = page.getByRole('region', { name: 'Personal settings' });
    await expect(personal.getByRole('checkbox', { name: 'Mute channel' })).toBeChecked();
    await expect(personal.getByRole('checkbox', { name: 'Pin channel to top' })).not.toBeChecked();
    // A new colour: the sidebar's swatch takes it at once.
    await personal.getByLabel('Channel colour').fill('#e4523d');
    await expect(channelRow(page, 'Denmark').locator('.swatch')).toHaveCSS('background-color', 'rgb(228, 82, 61)');
    await personal.getByRole('checkbox', { name: 'Desktop notifications', exact: true }).check();
    await expect(personal.getByRole('checkbox', { name: 'Desktop notifications', exact: true })).toBeChecked();
    await screenshot(page, testInfo, '98-channel-personal-settings-light', { shownDarkToo: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '98-channel-personal-settings-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // All six wait in the outbox, each in its own words.
    const badge = page.getByRole('status', { name: 'Outbox' });
    await expect(badge).toHaveText('6 pending');
    await page.getByRole('button', { name: /^Open the outbox/ }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows).toHaveCount(6);
    const waiting = /: (Waiting to send|Waiting for the connection|Sending|Will retry)$/;
    const names = async () => (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map((n) => n.replace(waiting, ''));
    expect((await names()).sort()).toEqual(['Change the colour of #Denmark to #e4523d', 'Change the colour of #Verona to #4f8de4', 'Mute #Denmark', 'Pin #Verona', 'Turn on desktop notifications for #Denmark', 'Unmute #Denmark › castle'].sort());

    await world.startServer();
    await expect(badge).toHaveCount(0, { timeout: 60_000 });
    // Each landed once: six finished rows, each done.
    await panel.getByRole('checkbox', { name: 'Include finished' }).check();
    await expect(rows).toHaveCount(6);
    expect(await rows.evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') ?? '').endsWith(': Done')))).toEqual(Array(6).fill(true));

    const subs = (await iago.call('GET', '/users/me/subscriptions'))['subscriptions'] as Array<Record<string, unknown>>;
    expect(subs.find((s) => s['stream_id'] === denmark)).toMatchObject({ is_muted: true, pin_to_top: false, desktop_notifications: true, color: '#e4523d' });
    expect(subs.find((s) => s['stream_id'] === verona)).toMatchObject({ is_muted: false, pin_to_top: true, color: '#4f8de4' });
    const userTopics = ((await iago.call('POST', '/register', { fetch_event_types: '["user_topic"]' }))['user_topics'] as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>).filter((t) => t.stream_id === denmark);
    expect(userTopics.map((t) => [t.topic_name, t.visibility_policy])).toEqual([['castle', 2]]);
    // The app shows what the server has: Denmark still muted, Verona still first.
    await expect(channelRow(page, 'Denmark')).toHaveClass(/\bmuted\b/);
    await expect(sidebar(page).locator('li.channel').first()).toContainText('Verona');
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
