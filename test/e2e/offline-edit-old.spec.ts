/**
 * An owner edits their own message sent hours ago while the reference server PROCESS is stopped:
 * the time limit on editing does not bind owners, administrators and moderators, so the device
 * keeps the message's raw text and the edit waits in the outbox, then lands once when the server
 * is back (issue #25 item 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, messageList, openTopic, screenshot, test } from './fixtures.js';
import { freePort, startServerProcess } from './processes.js';
import { restAs, signInFromWelcome, statusOf } from './real-world.js';

const ORIGINAL = 'Welcome to the **Sandbox** realm! This is an offline copy of a team chat; poke at anything.';
const EDITED = 'Welcome to the **Sandbox** realm! Edited offline by its owner, hours later.';

test('an owner edits an own message older than the edit window offline, and it lands once', async ({ app: page, host }, testInfo) => {
  test.setTimeout(150_000);
  // The server as its own process (stopped and started below); the app's host in this process, so
  // the test can see what the device keeps.
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-edit-old-'));
  const port = await freePort();
  const dataFile = path.join(work, 'server.db');
  let server = await startServerProcess(port, dataFile);
  try {
    const desdemona = await restAs(server.url, 'desdemona@example.com');
    // Reading would queue read flags of its own next to the edit.
    await desdemona.call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
    await signInFromWelcome(page, server.url, 'desdemona@example.com');
    const [sent] = (await desdemona.messages([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'welcome' }])).filter((m) => m.content === ORIGINAL);
    if (!sent) throw new Error('no welcome message');
    // Hours old, far past the realm's 10-minute content-edit limit for members.
    expect(Date.now() / 1000 - sent.timestamp).toBeGreaterThan(6 * 3600);
    const versions = async () => ((await (await restAs(server.url, 'desdemona@example.com')).call('GET', `/messages/${sent.id}/history`))['message_history'] as unknown[]).length;
    expect(await versions()).toBe(1);

    await openTopic(page, 'general', 'welcome');
    // By id: while it is edited the item shows the editor instead of the text.
    const mine = messageList(page).locator(`li.message[data-message-id="${sent.id}"]`);
    await expect(mine).toContainText('Welcome to the Sandbox realm!');
    // The device fetched its raw text in the background once the page was shown (before #25 it
    // kept only messages inside the edit window).
    await expect
      .poll(() => host.service.activeSession?.db.prepare('SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(sent.id), { timeout: 15_000 })
      .toBe(ORIGINAL);
    await server.proc.stop();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });

    await mine.hover();
    await mine.getByRole('button', { name: 'Edit message' }).click();
    const editor = mine.getByRole('textbox', { name: 'Message text' });
    await expect(editor).toHaveValue(ORIGINAL);
    await expect(mine).not.toContainText('not on this device');
    await editor.fill(EDITED);
    await mine.getByRole('button', { name: 'Save' }).click();
    // Pending, the message shows the text as typed (the server renders it once it lands).
    await expect(mine.locator('.message-content')).toHaveText(EDITED);
    await expect(mine.locator('.marker-pending')).toBeVisible();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await screenshot(page, testInfo, '90-offline-edit-old-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(page, testInfo, '90-offline-edit-old-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    server = await startServerProcess(port, dataFile);
    await expect(statusOf(page)).toContainText('Live', { timeout: 60_000 });
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    await expect(mine.locator('.marker-pending')).toHaveCount(0);
    await expect(mine.locator('.message-content')).toHaveText('Welcome to the Sandbox realm! Edited offline by its owner, hours later.');
    const now = await restAs(server.url, 'desdemona@example.com');
    expect(((await now.call('GET', `/messages/${sent.id}`, { apply_markdown: 'false' }))['message'] as { content: string }).content).toBe(EDITED);
    // Exactly one edit: the original and the one version the queued edit made.
    expect(await versions()).toBe(2);
  } finally {
    await server.proc.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
});
