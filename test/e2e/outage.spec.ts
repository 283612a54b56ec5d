/**
 * The offline promise through a real outage: the reference server is its own process with a data
 * file, the browser-mode host its own process. Signed in from the first screen, the server process
 * is stopped (not the session). Then, offline: the status says so; an old message of one's own is
 * edited (its raw text from the device's copy); a new topic is started; a DM is sent; a message is
 * starred; a topic is muted; a draft is typed in another topic. The host is SIGKILLed and started
 * again, still offline: everything is still pending and the draft is back. The server starts: all
 * of it lands exactly once, in order, verified over the server's REST API, and the status is Live.
 * And, on its own: what was typed a quarter second before the host is killed is there after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { foreignRequests, messageList, screenshot, sidebar } from './fixtures.js';
import { freePort, startHostProcess, startServerProcess, type Proc } from './processes.js';
import { restAs, signInFromWelcome, statusOf } from './real-world.js';

const test = base;


test('a real outage: work offline, SIGKILL the app, start it again offline, then everything lands once', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-outage-'));
  const dataFile = path.join(work, 'server.db');
  const dataDir = path.join(work, 'app');
  const port = await freePort();
  const procs: Proc[] = [];
  const problems: string[] = [];
  const own = new Set<string>();
  const foreign = foreignRequests(page, own);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Lost connections while the server is down are expected; anything else is not.
    if (m.type() === 'error' && !/Failed to load resource|ERR_CONNECTION/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  try {
    let server = await startServerProcess(port, dataFile);
    procs.push(server.proc);
    const iago = await restAs(server.url, 'iago@example.com');
    // Members may edit for 10 minutes in the demo realm; this realm lets them edit old messages.
    await iago.call('PATCH', '/realm', { message_content_edit_limit_seconds: JSON.stringify('unlimited') });
    let hamlet = await restAs(server.url, 'hamlet@example.com');
    const old = (await hamlet.messages([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'ghost sightings' }])).find((m) => m.sender_email === 'hamlet@example.com');
    if (!old) throw new Error('no message of hamlet in Denmark › ghost sightings');
    expect(Date.now() / 1000 - old.timestamp).toBeGreaterThan(3600);

    let host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    await page.goto(host.url);
    await signInFromWelcome(page, server.url, 'hamlet@example.com');
    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'Denmark', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in Denmark' }).getByRole('link', { name: 'ghost sightings', exact: true }).click();
    const mine = messageList(page).locator(`li.message[data-message-id="${old.id}"]`);
    await expect(mine).toContainText('It was my father');

    // The outage: the server process goes away.
    await server.proc.stop();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });
    await screenshot(page, testInfo, '40-outage-offline');

    // 1. Edit one's own old message: the raw Markdown comes from the device.
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit message' }).click();
    const editor = mine.getByRole('textbox', { name: 'Message text' });
    await expect(editor).toHaveValue('> Something walked on the battlements\n\nIt was my father. We talked.');
    await editor.fill('> Something walked on the battlements\n\nIt was my father. We talked **at length**.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(mine.locator('.message-content')).toContainText('We talked **at length**.');

    // 2. Star a message (the hover bar).
    await mine.hover();
    await mine.getByRole('button', { name: 'Star message' }).click();
    await expect(mine.getByRole('img', { name: 'Starred' })).toBeVisible();

    // 3. Start a new topic in a channel.
    await nav.getByRole('link', { name: 'Verona', exact: true }).click();
    const newTopic = page.getByRole('form', { name: 'New topic' });
    await newTopic.getByRole('combobox', { name: 'Topic' }).fill('written on the train');
    await newTopic.getByRole('textbox', { name: 'Message to a new topic' }).fill('First words of a new topic, offline.');
    await newTopic.getByRole('button', { name: 'Send' }).click();
    await expect(messageList(page).locator('li.message', { hasText: 'First words of a new topic, offline.' })).toBeVisible();

    // 4. A direct message.
    await page.getByRole('button', { name: 'New direct message' }).click();
    const dm = page.getByRole('form', { name: 'New direct message' });
    const picker = dm.getByRole('combobox', { name: 'Add a person' });
    await picker.fill('oth');
    await expect(dm.getByRole('option', { name: /Othello/ })).toHaveAttribute('aria-selected', 'true');
    await picker.press('Enter');
    await dm.getByRole('textbox', { name: 'Direct message text' }).fill('Othello, sent from a train with no signal.');
    await dm.getByRole('textbox', { name: 'Direct message text' }).press('Control+Enter');
    await expect(messageList(page).locator('li.message', { hasText: 'Othello, sent from a train with no signal.' })).toBeVisible();

    // 5. Mute a topic from the sidebar.
    await nav.getByRole('link', { name: 'Verona', exact: true }).click();
    const row = nav.getByRole('list', { name: 'Topics in Verona' }).locator('li.topic', { has: page.getByRole('link', { name: 'balcony scene', exact: true }) });
    await row.getByRole('button', { name: 'Actions for topic balcony scene' }).click();
    await page.getByRole('menu', { name: 'Actions for topic balcony scene' }).getByRole('menuitemradio', { name: 'Mute' }).click();
    await expect(row).toHaveClass(/\bmuted\b/);

    // 6. A draft in another topic, not sent.
    await nav.getByRole('link', { name: 'general', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'lunch plans', exact: true }).click();
    const reply = page.getByRole('textbox', { name: 'Message to lunch plans' });
    await reply.fill('Half a thought about lunch, to finish later');
    await reply.blur();
    // Five changes, and what reading marked read: none when nothing was unread, else a row per
    // batch of reads (the views were read in two places, so one batch or two). Then settled.
    const outbox = page.getByRole('status', { name: 'Outbox' });
    await expect(outbox).toHaveText(/^[5-7] pending$/);
    await expect
      .poll(async () => {
        const before = await outbox.textContent();
        await page.waitForTimeout(1_000);
        return (await outbox.textContent()) === before;
      })
      .toBe(true);
    const pending = await outbox.textContent();
    await screenshot(page, testInfo, '41-outage-queued');

    // The app dies (SIGKILL: no shutdown code runs) and starts again, still offline.
    await host.proc.kill();
    host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    await page.goto(host.url);
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText(pending ?? '', { timeout: 30_000 });
    await expect(statusOf(page)).not.toContainText('Live');
    await nav.getByRole('link', { name: 'general', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'lunch plans', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Message to lunch plans' })).toHaveValue('Half a thought about lunch, to finish later');
    await screenshot(page, testInfo, '42-outage-after-restart');

    // The server comes back: everything lands, once, in order.
    server = await startServerProcess(port, dataFile);
    procs.push(server.proc);
    await expect(statusOf(page)).toContainText('Live', { timeout: 60_000 });
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 60_000 });
    await screenshot(page, testInfo, '43-outage-landed');

    hamlet = await restAs(server.url, 'hamlet@example.com');
    const after = (await hamlet.messages([{ operator: 'id', operand: old.id }]))[0];
    expect(after?.content).toBe('> Something walked on the battlements\n\nIt was my father. We talked **at length**.');
    expect(after?.flags).toContain('starred');
    const topic = await hamlet.messages([{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'written on the train' }]);
    expect(topic.map((m) => m.content)).toEqual(['First words of a new topic, offline.']);
    const dms = await hamlet.messages([{ operator: 'dm', operand: 'othello@example.com' }]);
    expect(dms.filter((m) => m.content === 'Othello, sent from a train with no signal.')).toHaveLength(1);
    const state = await hamlet.call('POST', '/register', { fetch_event_types: JSON.stringify(['user_topic']) });
    const topics = state['user_topics'] as Array<{ topic_name: string; visibility_policy: number }>;
    expect(topics.find((t) => t.topic_name === 'balcony scene')?.visibility_policy).toBe(1);
    // The draft stayed a draft: nothing was sent to lunch plans.
    const lunch = await hamlet.messages([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'lunch plans' }]);
    expect(lunch.some((m) => m.content.includes('Half a thought'))).toBe(false);
    expect(problems, 'errors in the page').toEqual([]);
    expect(foreign, 'requests to another origin').toEqual([]);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(work, { recursive: true, force: true });
  }
});

test('a draft typed steadily until a quarter second before the host is SIGKILLed is all there after the restart', async ({ page }) => {
  test.setTimeout(120_000);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-draft-kill-'));
  const procs: Proc[] = [];
  try {
    const server = await startServerProcess(await freePort(), path.join(work, 'server.db'));
    procs.push(server.proc);
    const dataDir = path.join(work, 'app');
    let host = await startHostProcess(dataDir);
    procs.push(host.proc);
    await page.goto(host.url);
    await signInFromWelcome(page, server.url, 'hamlet@example.com');
    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'general', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'lunch plans', exact: true }).click();
    const reply = page.getByRole('textbox', { name: 'Message to lunch plans' });
    await reply.click();
    // Real keystrokes, without a pause long enough for a debounce: the page keeps its focus throughout.
    const typed = 'Typed steadily right up to the crash';
    await page.keyboard.type(typed, { delay: 40 });
    await page.waitForTimeout(300);
    await host.proc.kill();

    host = await startHostProcess(dataDir);
    procs.push(host.proc);
    await page.goto(host.url);
    await nav.getByRole('link', { name: 'general', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'lunch plans', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Message to lunch plans' })).toHaveValue(typed);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
