/**
 * Files a message links (issue #21 item 5), with the reference server and the browser-mode host as
 * their own processes: a click on a PDF link downloads it with its name through the host (the realm
 * would refuse the tab: it is not signed in there); "Keep offline" fetches another file ahead and
 * says it is kept; with the server process stopped and the page reloaded, the kept file still
 * downloads and one never fetched says it is not available offline. Read receipts (issue #21 item 3)
 * from the message's menu list who read it; offline the dialog says it needs a connection.
 * Screenshots light and dark (119).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { openRealWorld } from './real-world.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const NOTES = Buffer.from('Notes for the meeting.\n');

/** Upload a file as a demo user (password `sandbox`); its `/user_uploads/...` path. */
async function upload(serverUrl: string, email: string, name: string, type: string, data: Buffer): Promise<string> {
  const key = (await (await fetch(`${serverUrl}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) })).json()) as { api_key: string };
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${serverUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}` }, body: fd });
  return ((await res.json()) as { url: string }).url;
}

/** The message's "Read receipts" dialog, from its menu. */
async function openReadReceipts(page: Page) {
  const item = messageList(page).getByRole('listitem').first();
  await item.hover();
  await item.getByRole('button', { name: 'More message actions' }).click();
  await page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'Read receipts' }).click();
  return page.getByRole('dialog', { name: 'Read receipts' });
}

/** Click a file link and wait for the download; its name and bytes. */
async function download(page: Page, name: string): Promise<{ name: string; body: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), messageList(page).getByRole('link', { name, exact: true }).click()]);
  const file = await d.path();
  return { name: d.suggestedFilename(), body: readFileSync(file) };
}

test('file links download through the host; keep offline, stop the server, reload: the kept file downloads, another is not available offline', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'iago@example.com');
  try {
    const serverUrl = world.serverUrl;
    const plan = await upload(serverUrl, 'hamlet@example.com', 'plan.pdf', 'application/pdf', PDF);
    const notes = await upload(serverUrl, 'hamlet@example.com', 'notes.txt', 'text/plain', NOTES);
    const agenda = await upload(serverUrl, 'hamlet@example.com', 'agenda.pdf', 'application/pdf', PDF);
    const hamlet = await world.rest('hamlet@example.com');
    const sent = await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'files', content: `The [plan.pdf](${plan}), [notes.txt](${notes}) and [agenda.pdf](${agenda}).` });
    const othello = await world.rest('othello@example.com');
    await othello.call('POST', '/messages/flags', { messages: JSON.stringify([sent['id']]), op: 'add', flag: 'read' });
    await openTopic(page, 'Verona', 'files');

    // Online: the PDF downloads with its name and its bytes (the realm itself would answer 401/403 to the tab).
    const got = await download(page, 'plan.pdf');
    expect(got.name).toBe('plan.pdf');
    expect(got.body.equals(PDF)).toBe(true);

    // Keep notes.txt offline: the button says it is kept.
    await messageList(page).getByRole('button', { name: 'Keep offline: notes.txt' }).click();
    const kept = messageList(page).getByRole('button', { name: 'Kept offline: notes.txt' });
    await expect(kept).toHaveAttribute('aria-pressed', 'true');
    await lightAndDark(page, testInfo, '119-attachments');

    // Read receipts, from the message's menu: who read it, by name (the sender never listed).
    const readReceipts = await openReadReceipts(page);
    await expect(readReceipts.getByRole('list', { name: 'Read by' })).toContainText('Othello, the Moor of Venice');
    await expect(readReceipts.getByRole('list', { name: 'Read by' })).not.toContainText('King Hamlet');
    await lightAndDark(page, testInfo, '119-read-receipts');
    await page.keyboard.press('Escape');
    await expect(readReceipts).toHaveCount(0);

    await world.stopServer();
    await page.reload();
    await openTopic(page, 'Verona', 'files');
    // Still kept after the reload; it downloads from the device.
    await expect(kept).toBeVisible();
    const offline = await download(page, 'notes.txt');
    expect(offline.name).toBe('notes.txt');
    expect(offline.body.equals(NOTES)).toBe(true);
    // agenda.pdf was never fetched: not available offline, in words; no download.
    let downloads = 0;
    page.on('download', () => downloads++);
    await messageList(page).getByRole('link', { name: 'agenda.pdf', exact: true }).click();
    await expect(messageList(page).getByRole('status').filter({ hasText: 'Not available offline' })).toBeVisible();
    expect(downloads).toBe(0);
    await lightAndDark(page, testInfo, '119-attachments-offline');
    // Read receipts need the server: offline the dialog says so.
    await expect(await openReadReceipts(page)).toContainText('Showing who read this message needs a connection to the server.');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
