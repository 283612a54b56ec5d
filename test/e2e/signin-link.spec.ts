/**
 * The printed sign-in link works once: the browser it signed in lands on the clean URL; the same
 * link in another browser (a fresh context: nothing stored) shows a page saying it was used and how
 * to get a fresh one; a fresh link from the host signs that browser in. Screenshots light and dark.
 * The host's secret never reaches another port of 127.0.0.1 (no cookie: cookies are not bound to
 * ports), and an open page finds a host restarted on its port again without a new link.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBrowserHost } from '../../host/browser/server.js';
import { expect, openTopic, OTHER_ORIGINS, screenshot, test } from './fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

test('a used sign-in link is refused with a clear page; a fresh one signs in', async ({ app, host, browser }, testInfo) => {
  await expect(app).toHaveURL(`${host.origin}/`);
  const other = await browser.newContext();
  try {
    const page = await other.newPage();
    const res = await page.goto(host.url);
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'This sign-in link has already been used' })).toBeVisible();
    await expect(page.getByText('kill -USR2 PID')).toBeVisible();
    await screenshot(page, testInfo, '16-signin-link-used-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, testInfo, '16-signin-link-used-dark');
    await page.goto(host.newLoginUrl());
    await expect(page).toHaveURL(`${host.origin}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'This sign-in link has already been used' })).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test('the signed-in browser sends nothing of the host\'s secret to another port of 127.0.0.1', async ({ app, host }) => {
  test.info().annotations.push({ type: OTHER_ORIGINS, description: 'visits another local server on purpose' });
  const seen: IncomingHttpHeaders[] = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>another local server</title><img src="/pixel.png">');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    const otherPort = (other.address() as AddressInfo).port;
    expect(otherPort).not.toBe(host.port);
    // The app's tab holds the secret; the browser keeps no cookie for 127.0.0.1.
    const secret = String(await app.evaluate("JSON.parse(sessionStorage.getItem('zulip-offline-host') ?? '{}').secret ?? ''"));
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await app.context().cookies()).toEqual([]);
    // Visited in another tab of the same browser, and in the app's own tab.
    const tab = await app.context().newPage();
    await tab.goto(`http://127.0.0.1:${otherPort}/`);
    await expect(tab).toHaveTitle('another local server');
    await tab.close();
    await app.goto(`http://127.0.0.1:${otherPort}/?from=app`);
    await expect(app).toHaveTitle('another local server');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const h of seen) {
      expect(h.cookie).toBeUndefined();
      expect(JSON.stringify(h)).not.toContain(secret);
    }
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test('an open page finds the host again after it restarts on its port, without a new link', async ({ page }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zulip-e2e-restart-'));
  const rendererDir = path.join(ROOT, 'out', 'renderer');
  let host = await startBrowserHost({ dataDir, rendererDir, sandbox: true });
  try {
    await page.goto(host.url);
    await openTopic(page, 'general', 'lunch plans');
    const live = page.getByRole('status').filter({ hasText: 'Live' });
    await expect(live).toBeVisible({ timeout: 30_000 });
    const port = host.port;
    await host.close();
    await expect(live).toHaveCount(0, { timeout: 30_000 });
    // Started again as `npm start` would (no --port): the same port, the same secret.
    host = await startBrowserHost({ dataDir, rendererDir });
    expect(host.port).toBe(port);
    await expect(live).toBeVisible({ timeout: 30_000 });
    await openTopic(page, 'general', 'welcome');
    await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#`));
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
