/**
 * Long lists at the size of a large organisation (a scaled-down large organisation: 500 people,
 * hundreds of unread topics): the user list and the Inbox render a page of rows and more as their
 * end nears the view, and the Inbox keeps its rows' DOM across unread changes (a topic marked as
 * read takes its row away and leaves the others in place). Server and host are processes of their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startHostProcess, startLargeOrgServerProcess, type Proc } from './processes.js';
import { signInFromWelcome } from './real-world.js';

test('a large organisation: the user list and the Inbox render as they are scrolled; a topic marked as read leaves the other rows in place', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-large-lists-'));
  const procs: Proc[] = [];
  try {
    const server = await startLargeOrgServerProcess(await freePort(), path.join(work, 'server.db'), 0.05);
    procs.push(server.proc);
    const host = await startHostProcess(path.join(work, 'app'));
    procs.push(host.proc);
    await page.goto(host.url);
    await signInFromWelcome(page, server.url, 'bench@example.com');

    // The user list: a page of people, more once its end is scrolled near.
    const people = page.getByRole('list', { name: 'User list' }).getByRole('listitem');
    await expect(people).toHaveCount(100);
    await people.last().scrollIntoViewIfNeeded();
    await expect.poll(() => people.count()).toBeGreaterThanOrEqual(200);

    // The Inbox: a page of rows (conversations and channel headings), more as it is scrolled.
    await page.getByRole('link', { name: 'Inbox' }).first().click();
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const rows = inbox.locator('li.inbox-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    const first = await rows.count();
    expect(first).toBeLessThanOrEqual(100);
    await rows.last().scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBeGreaterThan(first);

    // Every row rendered now is marked in the DOM; marking one topic as read removes its row, and
    // every other row is the same element as before (rows are kept by key, not rebuilt).
    const before = await rows.count();
    await rows.evaluateAll((els) => els.forEach((el) => el.setAttribute('data-probe', 'kept')));
    const target = inbox.locator('ul[aria-label^="Unread topics in"] li.inbox-row').nth(1);
    const label = (await target.getByRole('button', { name: /^Mark .* as read$/ }).getAttribute('aria-label'))!;
    await target.getByRole('button', { name: label }).click();
    await expect(inbox.getByRole('button', { name: label, exact: true })).toHaveCount(0);
    await expect.poll(() => inbox.locator('li.inbox-row[data-probe="kept"]').count()).toBe(before - 1);
    expect(problems).toEqual([]);
  } finally {
    for (const p of procs.reverse()) await p.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
});
