/**
 * The browser-mode host going away under an open tab. Started again on the same data (so the same
 * port and secret), the tab reconnects by itself. Started again with a new sign-in (another data
 * directory on that port: a secret this tab does not hold), the tab stops saying "Reconnecting…"
 * and says what happened and what to do, and its button leads to the host's page on getting a new
 * link; the new link signs the tab in again. Screenshots light and dark (98 host refused).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { foreignRequests, screenshot } from './fixtures.js';
import { startHostProcess, type Proc } from './processes.js';
import { statusOf } from './real-world.js';

test('a restarted host: the tab reconnects by itself, or says plainly how to sign in again', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-host-restart-'));
  const procs: Proc[] = [];
  const problems: string[] = [];
  const own = new Set<string>();
  const foreign = foreignRequests(page, own);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // The socket's failed attempts while the host is down are expected; nothing else is.
    if (m.type() === 'error' && !/WebSocket connection|Failed to load resource|ERR_CONNECTION/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  try {
    const dataDir = path.join(work, 'app');
    let host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    const port = Number(new URL(host.url).port);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open the sandbox' }).click();
    await expect(statusOf(page)).toContainText('Live', { timeout: 30_000 });

    // The same host again: back by itself, no reload, no new link.
    await host.proc.kill();
    await expect(statusOf(page)).toContainText('Reconnecting to the app', { timeout: 15_000 });
    await expect(statusOf(page)).toHaveAccessibleName(/if it was started at another address, open the link it printed/);
    host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    expect(Number(new URL(host.url).port)).toBe(port);
    await expect(statusOf(page)).toContainText('Live', { timeout: 30_000 });

    // A host with a new sign-in on that port: the tab's secret is refused, and it says so.
    await host.proc.kill();
    host = await startHostProcess(path.join(work, 'other'), port);
    own.add(host.url);
    procs.push(host.proc);
    const notice = page.getByRole('alert').filter({ hasText: 'The app was started again with a new sign-in, so this tab cannot reach it any more. Open the sign-in link it printed.' });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expect(statusOf(page)).toContainText('Not signed in to the app');
    await screenshot(page, testInfo, '98-host-refused');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '98-host-refused-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await notice.getByRole('button', { name: 'How to sign in again' }).click();
    await expect(page.getByRole('heading', { name: 'Open the sign-in link printed by the app host' })).toBeVisible();

    // The new link signs the tab in to the new host.
    await page.goto(host.url);
    await expect(page.getByRole('button', { name: 'Open the sandbox' })).toBeVisible({ timeout: 30_000 });
    await expect(notice).toHaveCount(0);
    expect(problems, 'errors in the page').toEqual([]);
    expect(foreign, 'requests to another origin').toEqual([]);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
