/**
 * Scheduled messages that fall due while the app is offline (issue #25, items 2 and 9). Two
 * messages are scheduled from the composer while the reference server PROCESS is stopped, for a
 * minute that passes before it starts again (it comes back with its clock past that minute): the
 * server refuses both creates ("must be in the future"). Neither is
 * stuck nor its text lost: the list says they were not scheduled and offers "Send now" and "Pick a
 * new time"; a new time re-sends the create with it, Send now sends the message once. An offline
 * edit of a scheduled message the server holds shows its new text in the list at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { demoUserAt, expect, openTopic, screenshot, sidebar, test } from './fixtures.js';
import { freePort, startServerProcess } from './processes.js';
import { signInFromWelcome, statusOf } from './real-world.js';

async function openScheduled(app: Page) {
  await sidebar(app).getByRole('link', { name: 'Scheduled messages' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Scheduled messages' })).toBeVisible();
}

/** `seconds` as the delivery-time field takes it, in UTC (the user's zone here). */
const utcWallTime = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16);

test('scheduled offline, due before the app is back: not stuck, sent now or at a new time, once', async ({ app }, testInfo) => {
  test.setTimeout(150_000);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-due-'));
  const port = await freePort();
  const dataFile = path.join(work, 'server.db');
  let server = await startServerProcess(port, dataFile);
  try {
    const desdemona = await demoUserAt(server.url, 'desdemona@example.com');
    await desdemona.updateSettings({ timezone: 'UTC' });
    await signInFromWelcome(app, server.url, 'desdemona@example.com');
    const later = await desdemona.schedule('general', 'lunch plans', 'Known to the server.', Math.floor(Date.now() / 1000) + 86_400);
    await openScheduled(app);
    await expect(app.getByText('Times are in UTC.')).toBeVisible();
    const known = app.locator(`li[data-scheduled-id="${later}"]`);
    await expect(known).toContainText('Known to the server.');

    // The first whole minute at least 75 s away: the composer takes it (a minute's lead), and the
    // server's clock is past it when the server process starts again.
    const due = Math.ceil((Date.now() / 1000 + 75) / 60) * 60;
    await server.proc.stop();
    await expect(statusOf(app)).toContainText('Offline', { timeout: 30_000 });

    // An offline edit of one the server holds shows its new text at once (item 9).
    await known.getByRole('button', { name: /^Edit scheduled message/ }).click();
    const edit = app.getByRole('dialog', { name: 'Edit scheduled message' });
    await edit.getByRole('textbox', { name: 'Message' }).fill('Known to the server, edited offline.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    await expect(known).toContainText('Known to the server, edited offline.');
    await expect(known.locator('.badge')).toHaveText('not sent yet');

    await openTopic(app, 'general', 'lunch plans');
    const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
    for (const text of ['The plan, for a new time.', 'The toast, to send now.']) {
      await input.fill(text);
      await app.getByRole('button', { name: 'Schedule', exact: true }).click();
      const dialog = app.getByRole('dialog', { name: 'Schedule message' });
      await dialog.getByLabel(/Delivery time/).fill(utcWallTime(due));
      await dialog.getByRole('button', { name: 'Schedule message' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(input).toHaveValue('');
    }
    await openScheduled(app);
    const plan = app.getByRole('listitem').filter({ hasText: 'The plan, for a new time.' });
    const toast = app.getByRole('listitem').filter({ hasText: 'The toast, to send now.' });
    await expect(plan.locator('.badge')).toHaveText('not sent yet');

    // Its time passes while the app is stopped (the server's clock moves past it; no waiting).
    const ahead = Math.max(0, Math.ceil(due + 2 - Date.now() / 1000));
    server = await startServerProcess(port, dataFile, ['--clock-offset', String(ahead)]);
    await expect(statusOf(app)).toContainText('Live', { timeout: 60_000 });

    // Refused for its time: said in words, with Send now and Pick a new time; the text kept.
    for (const item of [plan, toast]) {
      await expect(item.locator('.badge')).toHaveText('not scheduled', { timeout: 30_000 });
      await expect(item).toContainText('Its time passed before the server got it, so it was not scheduled.');
      await expect(item.getByRole('button', { name: /^Send now/ })).toBeVisible();
      await expect(item.getByRole('button', { name: /^Pick a new time/ })).toBeVisible();
    }
    await expect(known.locator('.badge')).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => m.content)).toEqual(['Known to the server, edited offline.']);
    await screenshot(app, testInfo, '60-scheduled-refused-light', { shownDarkToo: true });
    await app.emulateMedia({ colorScheme: 'dark' });
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
    await screenshot(app, testInfo, '60-scheduled-refused-dark');
    await app.emulateMedia({ colorScheme: 'light' });
    await expect(app.locator('html')).not.toHaveAttribute('data-theme', 'dark');

    // The outbox panel says the same and offers the fix, not a Retry the server would refuse again;
    // the fix leads back to the list.
    await app.getByRole('button', { name: /^Open the outbox/ }).click();
    const panelRow = app.getByRole('dialog', { name: 'Outbox' }).getByRole('listitem').filter({ hasText: 'Its time passed' }).first();
    await expect(panelRow.getByRole('button', { name: /^Send now or pick a new time/ })).toBeVisible();
    await expect(panelRow.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
    await panelRow.getByRole('button', { name: /^Send now or pick a new time/ }).click();
    await expect(app.getByRole('dialog', { name: 'Outbox' })).toHaveCount(0);
    await expect(plan.getByRole('button', { name: /^Pick a new time/ })).toBeVisible();

    // A new time: the create goes again with it (and the edited text), not behind the refusal.
    await plan.getByRole('button', { name: /^Pick a new time/ }).click();
    const pick = app.getByRole('dialog', { name: 'Pick a new time' });
    await expect(pick.getByLabel(/Delivery time/)).toHaveValue('');
    await pick.getByRole('textbox', { name: 'Message' }).fill('The plan, at a new time.');
    await pick.getByLabel(/Delivery time/).fill('2031-03-02T10:00');
    await pick.getByRole('button', { name: 'Save' }).click();
    await expect(pick).toHaveCount(0);
    const replanned = app.getByRole('listitem').filter({ hasText: 'The plan, at a new time.' });
    await expect(replanned.locator('.badge')).toHaveCount(0, { timeout: 30_000 });
    await expect
      .poll(async () => (await desdemona.scheduledMessages()).filter((m) => m.content.startsWith('The plan')).map((m) => [m.content, m.scheduled_delivery_timestamp]))
      .toEqual([['The plan, at a new time.', Date.UTC(2031, 2, 2, 10, 0) / 1000]]);

    // Send now: sent as a message, exactly once, and not scheduled.
    await toast.getByRole('button', { name: /^Send now/ }).click();
    await app.getByRole('dialog', { name: 'Send scheduled message now' }).getByRole('button', { name: 'Send now' }).click();
    await expect(toast).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await desdemona.contentsIn('general', 'lunch plans')).filter((c) => c === 'The toast, to send now.').length, { timeout: 30_000 }).toBe(1);
    expect((await desdemona.scheduledMessages()).some((m) => m.content === 'The toast, to send now.')).toBe(false);
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
  } finally {
    await server.proc.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
});
