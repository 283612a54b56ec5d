/**
 * Several organisations at once (issue #22 item 3): two reference servers, each its own process,
 * and the browser-mode host its own process. Signed in to the first, "Add organisation" signs in
 * to the second without signing out of the first; the organisations bar switches between them by
 * click, Ctrl+Tab and Ctrl+1..9. The first one's server process is stopped while it is shown and
 * an edit is queued there; a message on the second raises its unread badge on the bar meanwhile,
 * and it notifies: a click shows the second and opens the conversation. The first's server starts
 * again and the queued edit lands while it is not shown. Last, the bar is reordered from a menu.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { messageList, recordNotifications, screenshot, sidebar } from './fixtures.js';
import { freePort, startServerProcess, type Proc } from './processes.js';
import { openRealWorld, restAs, signInFromWelcome, statusOf } from './real-world.js';

/** The page's window, in the functions run there. */
declare const window: unknown;

test('two organisations: the bar switches, the one not shown syncs, a queued edit lands while the other is shown', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // The page's Web Notifications, recorded, with the app in the background.
  await recordNotifications(page);
  let oldId = 0;
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    // The first realm lets members edit old messages; hamlet's old one in Denmark is edited below.
    await (await rest('iago@example.com')).call('PATCH', '/realm', { message_content_edit_limit_seconds: JSON.stringify('unlimited') });
    // Reading would queue read flags of its own next to the edit.
    await (await rest('hamlet@example.com')).call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
    const old = (await (await rest('hamlet@example.com')).messages([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'ghost sightings' }])).find((m) => m.sender_email === 'hamlet@example.com');
    if (!old) throw new Error('no message of hamlet in Denmark › ghost sightings');
    oldId = old.id;
  });
  let second: { proc: Proc; url: string } | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-orgs-'));
  try {
    second = await startServerProcess(await freePort(), path.join(work, 'second.db'));
    const first = new URL(world.serverUrl).host;
    const bar = page.getByRole('navigation', { name: 'Organisations' });
    const tile = (host: string) => bar.getByRole('button', { name: new RegExp(`^Organisation Sandbox \\(${host.replace(/\./g, '\\.')}\\)`) });

    // Add an organisation: the sign-in screen over the first, which stays signed in.
    await bar.getByRole('button', { name: 'Add organisation' }).click();
    await signInFromWelcome(page, second.url, 'hamlet@example.com');
    const secondHost = new URL(second.url).host;
    await expect(bar.getByRole('listitem')).toHaveCount(2);
    await expect(tile(secondHost)).toHaveAttribute('aria-current', 'true');
    // With two signed in, the status says whose it is.
    await expect(statusOf(page)).toContainText(`Sandbox (${secondHost}): Live`);

    // Switch by click, by Ctrl+Tab and by Ctrl+2 / Ctrl+1.
    await tile(first).click();
    await expect(tile(first)).toHaveAttribute('aria-current', 'true');
    await expect(statusOf(page)).toContainText(`Sandbox (${first}): Live`);
    await page.keyboard.press('Control+Tab');
    await expect(tile(secondHost)).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Control+1');
    await expect(tile(first)).toHaveAttribute('aria-current', 'true');

    // The first one's server stops while it is shown; an edit is queued there.
    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'Denmark', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in Denmark' }).getByRole('link', { name: 'ghost sightings', exact: true }).click();
    const mine = messageList(page).locator(`li.message[data-message-id="${oldId}"]`);
    await expect(mine).toContainText('It was my father');
    await world.stopServer();
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit message' }).click();
    await mine.getByRole('textbox', { name: 'Message text' }).fill('> Something walked on the battlements\n\nIt was my father, edited in the first organisation.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await expect(tile(first)).toHaveAccessibleName(/not connected$/);

    // Meanwhile the second one, not shown, syncs: a DM from othello raises its badge on the bar.
    const before = Number(/, (\d+) unread/.exec((await tile(secondHost).getAttribute('aria-label')) ?? '')?.[1]);
    const othello = await restAs(second.url, 'othello@example.com');
    await othello.call('POST', '/messages', { type: 'private', to: JSON.stringify(['hamlet@example.com']), content: 'A word from the second organisation' });
    await expect(tile(secondHost)).toHaveAccessibleName(new RegExp(`, ${before + 1} unread$`), { timeout: 30_000 });
    await expect(tile(secondHost).locator('.org-badge')).toHaveText(String(before + 1));
    await screenshot(page, testInfo, '130-organisations-bar-light', { shownDarkToo: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(page, testInfo, '130-organisations-bar-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The second one notified too; a click on it shows the second and opens the conversation.
    const notes = () => page.evaluate(() => (window as unknown as { __notes: Array<{ body: string }> }).__notes.map((n) => n.body));
    await expect.poll(notes, { timeout: 15_000 }).toContain('A word from the second organisation');
    await page.evaluate(() => (window as unknown as { __notes: Array<{ body: string; onclick: (() => void) | null }> }).__notes.find((n) => n.body === 'A word from the second organisation')!.onclick?.());
    await expect(tile(secondHost)).toHaveAttribute('aria-current', 'true');
    await expect(page).toHaveURL(/#narrow\/dm\/\d+-/);
    await expect(messageList(page)).toContainText('A word from the second organisation');

    // The second shown, the first's server comes back: its queued edit lands while it is not shown.
    await world.startServer();
    const hamlet = await world.rest('hamlet@example.com');
    await expect
      .poll(async () => ((await hamlet.call('GET', `/messages/${oldId}`, { apply_markdown: 'false' }))['message'] as { content: string }).content, { timeout: 30_000 })
      .toContain('edited in the first organisation');
    await expect(tile(first)).not.toHaveAccessibleName(/not connected$/, { timeout: 30_000 });

    // Reordered from the tile's menu (keyboard-reachable): the first moves down, and Ctrl+2 is it now.
    await bar.getByRole('button', { name: `Options for Sandbox (${first})` }).click();
    await page.getByRole('menuitem', { name: 'Move down' }).click();
    await expect(bar.getByRole('listitem').first().getByRole('button').first()).toHaveAccessibleName(new RegExp(`^Organisation Sandbox \\(${secondHost.replace(/\./g, '\\.')}\\)`));
    await page.keyboard.press('Control+2');
    await expect(tile(first)).toHaveAttribute('aria-current', 'true');
    expect(world.problems()).toEqual([]);
  } finally {
    await second?.proc.stop();
    await world.close();
    rmSync(work, { recursive: true, force: true });
  }
});
