/**
 * Offline is waiting, not an error, through a real outage (the reference server's process
 * stopped and started again on the same port and data): the outbox panel's rows say they wait for
 * the connection, with no error colour and no attempt count; the status is named by a sentence,
 * never the engine's technical line. When the server is back, a change made then is sent at once
 * and the status says Sending (or is already Live) as the changes land: it never says Offline
 * again once one of them has reached the server. Screenshots 44–45, light and dark.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { messageList, screenshot, sidebar } from './fixtures.js';
import { openRealWorld, statusOf } from './real-world.js';

async function both(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(page, testInfo, name, { shownDarkToo: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, testInfo, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function openTopicIn(page: Page, channel: string, topic: string): Promise<void> {
  const nav = sidebar(page);
  await nav.getByRole('link', { name: channel, exact: true }).click();
  await nav.getByRole('list', { name: `Topics in ${channel}` }).getByRole('link', { name: topic, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${channel} › ${topic}` })).toBeVisible();
}

/**
 * Every change of the header's status sentence and the outbox badge, in order, kept in the page.
 * (Scripts run in the page are strings: the tests' TypeScript has no DOM.)
 */
async function recordHeader(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const log = [];
    window.headerLog = log;
    const snap = () => {
      const status = document.querySelector('.topbar > .status')?.getAttribute('aria-label') ?? '';
      const badge = document.querySelector('.topbar .outbox-badge')?.textContent ?? '';
      const entry = status + ' | ' + badge;
      if (log.at(-1) !== entry) log.push(entry);
    };
    new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    snap();
  })()`);
}

const headerLog = async (page: Page): Promise<string[]> => (await page.evaluate('window.headerLog')) as string[];

/** The computed colour of the first waiting row's note, and of the error colour in the same place (once there is one: rows re-render as their state moves on). */
const noteColours = async (page: Page) => {
  await page.locator('.outbox-row .outbox-note').first().waitFor({ state: 'attached' });
  return (await page.evaluate(`(() => {
    const note = document.querySelector('.outbox-row .outbox-note');
    const probe = document.createElement('span');
    probe.style.color = 'var(--error)';
    note.parentElement.appendChild(probe);
    const out = { text: getComputedStyle(note).color, error: getComputedStyle(probe).color };
    probe.remove();
    return out;
  })()`)) as { text: string; error: string };
};

test('offline, queued changes wait in words; when the server is back the status says Sending, not Offline, as they land', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  // Reading would queue read flags of its own (as markReadOnScroll(host, 'never') does for the
  // in-process host): set before sign-in, so the rows counted are the sends alone.
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    await (await rest('hamlet@example.com')).call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
  });
  try {
    await openTopicIn(page, 'general', 'lunch plans');
    await world.stopServer();
    const status = statusOf(page);

    const input = page.getByRole('textbox', { name: 'Message to lunch plans' });
    for (const text of ['Sent while the server is away.', 'A second one.', 'And a third.']) {
      await input.fill(text);
      await input.press('Control+Enter');
    }
    const badge = page.getByRole('status', { name: 'Outbox' });
    await expect(badge).toHaveText('3 pending');
    // A sentence, with what waits; never "GET /events: network error (ECONNREFUSED)". (A server
    // shutting down answers its last polls with a 503 before it refuses connections.)
    await expect(status).toHaveAccessibleName(/^Offline: the server (cannot be reached|has a problem)\. 3 changes will be sent when it is back\.$/);
    await expect(status).toContainText('Offline');

    await page.getByRole('button', { name: /^Open the outbox/ }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows).toHaveCount(3);
    // The first was tried and refused a connection: it waits for it, in words. The others wait
    // behind it (one conversation's messages go in order).
    await expect(rows.first()).toHaveAccessibleName('Send a message to #general › lunch plans: Waiting for the connection');
    await expect(rows.first()).toContainText('Waiting for the connection; will send when the server is back.');
    for (const i of [1, 2]) await expect(rows.nth(i)).toHaveAccessibleName(/^Send a message to #general › lunch plans: Waiting (for the connection|to send)$/);
    // Not an error: no error text or colour, no attempt count, no technical reason.
    await expect(panel.locator('.outbox-error')).toHaveCount(0);
    await expect(panel.locator('.tone-failed, .badge-failed')).toHaveCount(0);
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await expect(panel).not.toContainText(/attempt|ECONNREFUSED|could not be reached/);
    const colours = await noteColours(page);
    expect(colours.error).toMatch(/^rgb/);
    expect(colours.text).not.toBe(colours.error);
    await both(page, testInfo, '44-outage-waiting');
    await panel.getByRole('button', { name: 'Close the outbox' }).click();

    // The server comes back. A change made then, in another conversation, is sent at once: while
    // the event stream may still be sleeping out its backoff, the header must follow the outbox.
    await openTopicIn(page, 'Denmark', 'ghost sightings');
    const other = page.getByRole('textbox', { name: 'Message to ghost sightings' });
    await other.fill('Back online, sent at once.');
    await recordHeader(page);
    const back = world.startServer();
    await expect.poll(() => fetch(`${world.serverUrl}/api/v1/server_settings`).then((r) => r.ok, () => false), { timeout: 60_000, intervals: [20] }).toBe(true);
    await other.press('Control+Enter');
    await back; // the status says Live
    await expect(badge).toHaveCount(0, { timeout: 30_000 });

    // From the first change seen to reach the server on, the header said it was sending (or
    // reconnecting, or live), never Offline.
    const log = await headerLog(page);
    const pending = log.map((e) => Number(/(\d+) pending/.exec(e)?.[1] ?? 0));
    const firstLanded = pending.findIndex((n, i) => i > 0 && n < Math.max(...pending.slice(0, i)));
    expect(firstLanded, log.join('\n')).toBeGreaterThan(0);
    for (const e of log.slice(firstLanded)) expect(e, log.join('\n')).toMatch(/^(Sending your changes|Connecting|Syncing|Live)/);
    expect(log.at(-1), log.join('\n')).toMatch(/^Live: /);
    await testInfo.attach('header-log.txt', { body: log.join('\n'), contentType: 'text/plain' });
    await openTopicIn(page, 'general', 'lunch plans');
    await expect(messageList(page).getByText('And a third.')).toBeVisible();
    await both(page, testInfo, '45-outage-back');

    const hamlet = await world.rest('hamlet@example.com');
    const lunch = await hamlet.messages([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'lunch plans' }]);
    expect(lunch.map((m) => m.content).slice(-3)).toEqual(['Sent while the server is away.', 'A second one.', 'And a third.']);
    const ghosts = await hamlet.messages([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'ghost sightings' }]);
    expect(ghosts.filter((m) => m.content === 'Back online, sent at once.')).toHaveLength(1);
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
