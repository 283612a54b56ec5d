/**
 * Writing through a real outage (issue #26's proof): the reference server and the browser-mode host
 * are their own processes. With the server stopped, an image is pasted into the composer and a PDF
 * attached with the "Attach files" button; the preview shows the image from the device's copy;
 * the message is sent and waits behind its files; another message is deleted, a vote cast in a
 * poll, and a third message edited with an image pasted into its editor. The host is SIGKILLed and started again, still offline: all five changes are still queued,
 * the copies still on disk and the image still shown from its copy. The server starts: each file
 * is uploaded exactly once (`GET /attachments`), the message links both, the edited message its
 * image (by the edit, after its new text), the deletion and the vote landed once, and the copies are gone. Screenshots light and dark (110, 118).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { foreignRequests, lightAndDark, messageList, sidebar } from './fixtures.js';
import { freePort, startHostProcess, startServerProcess, type Proc } from './processes.js';
import { openRealWorld, restAs, signInFromWelcome, statusOf } from './real-world.js';

/** A 2x2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const TEXT = 'The plan, and a picture of the whiteboard.';
const EDITED = 'Rehearsal at noon, see the stage plan.';

/** Paste an image into a textarea as a browser does (a ClipboardEvent carrying a file). */
async function pasteImage(page: Page, label: string, bytes: Buffer): Promise<void> {
  // A string: this project's Node-side TypeScript has no DOM types.
  await page.evaluate(`(() => {
    const data = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], 'image.png', { type: 'image/png' }));
    const el = document.querySelector('textarea[aria-label=${JSON.stringify(label)}]');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  })()`);
}

/** The account's copies of queued files (`accounts/NAME.outbox-files/`). */
function copies(dataDir: string): string[] {
  const accounts = path.join(dataDir, 'accounts');
  const dir = readdirSync(accounts).find((n) => n.endsWith('.outbox-files'));
  return dir === undefined || !existsSync(path.join(accounts, dir)) ? [] : readdirSync(path.join(accounts, dir));
}

test('offline: paste an image and attach a PDF, delete a message, vote; SIGKILL the app, restart offline; then each lands once and the message links both files', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(tmpdir(), 'zulip-uploads-offline-'));
  const dataFile = path.join(work, 'server.db');
  const dataDir = path.join(work, 'app');
  const port = await freePort();
  const procs: Proc[] = [];
  const problems: string[] = [];
  const own = new Set<string>();
  const foreign = foreignRequests(page, own);
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket connection|Failed to load resource|ERR_CONNECTION/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  try {
    let server = await startServerProcess(port, dataFile);
    procs.push(server.proc);
    const hamlet = await restAs(server.url, 'hamlet@example.com');
    // Reading would queue read flags of its own next to the uploads.
    await hamlet.call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
    const before = ((await hamlet.call('GET', '/attachments'))['attachments'] as unknown[]).length;
    // A message of hamlet's to delete and a poll to vote in, in the topic the test writes to.
    const doomed = (await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'balcony scene', content: 'A line to strike.' }))['id'] as number;
    const iago = await restAs(server.url, 'iago@example.com');
    const poll = (await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'balcony scene', content: '/poll Where next?\nGarden\nTomb' }))['id'] as number;
    const toEdit = (await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'balcony scene', content: 'Rehearsal at nine.' }))['id'] as number;

    let host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    await page.goto(host.url);
    await signInFromWelcome(page, server.url, 'hamlet@example.com');
    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'Verona', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in Verona' }).getByRole('link', { name: 'balcony scene', exact: true }).click();

    const strike = messageList(page).locator(`li.message[data-message-id="${doomed}"]`);
    const pollItem = messageList(page).locator(`li.message[data-message-id="${poll}"]`);
    await expect(strike).toContainText('A line to strike.');
    await expect(pollItem.getByRole('button', { name: /^Vote for Garden/ })).toBeVisible();
    // The editor opens while the server is up (its raw text read); it is saved offline.
    const edited = messageList(page).locator(`li.message[data-message-id="${toEdit}"]`);
    await edited.hover();
    await edited.getByRole('button', { name: 'Edit message' }).click();
    const editor = edited.getByRole('form', { name: 'Edit message' });
    await expect(editor.getByRole('textbox', { name: 'Message text' })).toHaveValue('Rehearsal at nine.');

    await server.proc.stop();
    await expect(statusOf(page)).toContainText('Offline', { timeout: 30_000 });

    // Delete a message and vote in the poll while offline.
    await strike.hover();
    await strike.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete message' }).click();
    await page.getByRole('dialog', { name: 'Delete message' }).getByRole('button', { name: 'Delete' }).click();
    await expect(strike.locator('.marker-pending')).toHaveText('deleting');
    await pollItem.getByRole('button', { name: /^Vote for Garden/ }).click();
    await expect(pollItem.getByRole('button', { name: /^Vote for Garden, 1 vote/ })).toBeVisible();
    // Edit the message and paste an image into its editor: the upload and the edit wait.
    await editor.getByRole('textbox', { name: 'Message text' }).fill(EDITED);
    await pasteImage(page, 'Message text', PNG);
    await expect(editor.getByRole('list', { name: 'Attached files' }).getByRole('status')).toHaveText('Waiting to upload');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toHaveCount(0);
    await expect(edited).toContainText(EDITED);
    await expect(edited.locator('.marker-pending')).toBeVisible();

    const composer = page.getByRole('form', { name: 'Compose' });
    const box = 'Message to balcony scene';
    await composer.getByRole('textbox', { name: box }).fill(TEXT);
    await pasteImage(page, box, PNG);
    const chooser = page.waitForEvent('filechooser');
    await composer.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF });
    const files = composer.getByRole('list', { name: 'Attached files' });
    await expect(files.getByRole('listitem')).toHaveCount(2);
    await expect(files).toContainText('plan.pdf');
    await expect(files).toContainText(/pasted-image-[\d-]+\.png/);
    await expect(files.getByRole('status')).toHaveText(['Waiting to upload', 'Waiting to upload']);
    // The pasted image shows from the device's copy, in the list and in the preview.
    const thumb = files.getByRole('img');
    await expect(thumb).toHaveJSProperty('naturalWidth', 2);
    await composer.getByRole('button', { name: 'Preview' }).click();
    const preview = composer.getByRole('region', { name: 'Preview' });
    await expect(preview).toContainText(TEXT);
    await expect(preview.getByRole('img')).toHaveJSProperty('naturalWidth', 2);
    await lightAndDark(page, testInfo, '110-uploads-offline-compose');

    await composer.getByRole('button', { name: 'Send' }).click();
    const echo = messageList(page).locator('li.message', { hasText: TEXT });
    await expect(echo).toContainText('plan.pdf');
    await expect(echo.locator('.marker-pending')).toBeVisible();
    await expect(files).toHaveCount(0);
    // Two uploads and the message that waits behind them, the deletion, the vote, the edit and its upload.
    const outbox = page.getByRole('status', { name: 'Outbox' });
    await expect(outbox).toHaveText('7 pending');
    expect(copies(dataDir)).toHaveLength(3);

    // The app dies (SIGKILL) and starts again, still offline: all seven still queued, copies kept.
    await host.proc.kill();
    host = await startHostProcess(dataDir);
    own.add(host.url);
    procs.push(host.proc);
    await page.goto(host.url);
    await expect(outbox).toHaveText('7 pending', { timeout: 30_000 });
    await expect(statusOf(page)).not.toContainText('Live');
    const kept = copies(dataDir);
    expect(kept).toHaveLength(3);
    // The image is still shown from its copy (the host's preview route, with this tab's key).
    const shown = (await page.evaluate(`(async () => {
      const key = JSON.parse(sessionStorage.getItem('zulip-offline-host') ?? '{}').uploads;
      const types = [];
      for (const id of ${JSON.stringify(kept)}) {
        const r = await fetch('/outbox-files/' + id + '?k=' + key);
        types.push(r.ok ? r.headers.get('content-type') : 'not shown');
      }
      return types;
    })()`)) as string[];
    // The image is; the PDF is no image to show.
    expect(shown.sort()).toEqual(['image/png', 'image/png', 'not shown']);
    await nav.getByRole('link', { name: 'Verona', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in Verona' }).getByRole('link', { name: 'balcony scene', exact: true }).click();
    await expect(messageList(page).locator('li.message', { hasText: TEXT })).toContainText('plan.pdf');
    await expect(messageList(page).locator(`li.message[data-message-id="${poll}"]`).getByRole('button', { name: /^Vote for Garden, 1 vote/ })).toBeVisible();
    await lightAndDark(page, testInfo, '118-uploads-offline-after-restart');

    // The server comes back: each file once, then the message linking both.
    server = await startServerProcess(port, dataFile);
    procs.push(server.proc);
    await expect(statusOf(page)).toContainText('Live', { timeout: 60_000 });
    await expect(outbox).toHaveCount(0, { timeout: 60_000 });
    const now = await restAs(server.url, 'hamlet@example.com');
    const attachments = ((await now.call('GET', '/attachments'))['attachments'] as Array<{ name: string; path_id: string; messages: Array<{ id: number }> }>).slice(before);
    expect(attachments.map((a) => a.name)).toEqual(expect.arrayContaining(['plan.pdf', expect.stringMatching(/^pasted-image-[\d-]+\.png$/)]));
    expect(attachments).toHaveLength(3);
    const inTopic = await now.messages([{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'balcony scene' }]);
    const sent = inTopic.find((m) => m.content.startsWith(TEXT));
    if (!sent) throw new Error('the message did not land');
    // Each file claimed by one message: the send's two, the edit's one (linked once, after its text).
    const editedNow = inTopic.find((m) => m.id === toEdit);
    const ofEdit = attachments.filter((a) => a.messages.some((m) => m.id === toEdit));
    expect(ofEdit).toHaveLength(1);
    expect(editedNow?.content).toBe(`${EDITED}\n[${ofEdit[0]!.name}](/user_uploads/${ofEdit[0]!.path_id})`);
    for (const a of attachments.filter((x) => x !== ofEdit[0])) {
      expect(sent.content).toContain(`](/user_uploads/${a.path_id})`);
      expect(a.messages.map((m) => m.id)).toEqual([sent.id]);
    }
    await expect(messageList(page).locator(`li.message[data-message-id="${sent.id}"]`).getByRole('link', { name: 'plan.pdf' })).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => copies(dataDir).length, { timeout: 10_000 }).toBe(0);
    // The deletion and the vote landed, once each.
    expect((await now.raw('GET', `/messages/${doomed}`)).body['msg']).toBe('Invalid message(s)');
    const pollNow = (await now.call('GET', `/messages/${poll}`))['message'] as { submessages: Array<{ sender_id: number; content: string }> };
    const hamletId = ((await now.call('GET', '/users/me'))['user_id']) as number;
    expect(pollNow.submessages.filter((m) => m.sender_id === hamletId).map((m) => JSON.parse(m.content) as { type: string; vote?: number })).toEqual([expect.objectContaining({ type: 'vote', vote: 1 })]);
    expect(problems, 'errors in the page').toEqual([]);
    expect(foreign, 'requests to another origin').toEqual([]);
  } finally {
    for (const p of procs.reverse()) await p.stop();
    rmSync(work, { recursive: true, force: true });
  }
});

test("a big upload's bar says how far it went: held where a stalled server left it, then uploaded", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // More than loopback sockets take in while the server is frozen (their buffers hold several MiB),
  // within the server's 25 MiB limit.
  const SIZE = 20 * 1024 * 1024;
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const nav = sidebar(page);
    await nav.getByRole('link', { name: 'Verona', exact: true }).click();
    await nav.getByRole('list', { name: 'Topics in Verona' }).getByRole('link', { name: 'balcony scene', exact: true }).click();
    await expect(statusOf(page)).toContainText('Live');

    // The server process is frozen: the connection takes what the socket buffers hold, then waits.
    world.freezeServer(true);
    const composer = page.getByRole('form', { name: 'Compose' });
    const chooser = page.waitForEvent('filechooser');
    await composer.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'rehearsal.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(SIZE, 1) }, { timeout: 60_000 });
    const file = composer.getByRole('list', { name: 'Attached files' }).getByRole('listitem');
    await expect(file.getByRole('status')).toHaveText('Uploading…');
    const bar = file.getByRole('progressbar', { name: 'Uploading rehearsal.mp4' });
    // Determinate (an indeterminate bar's position is -1), part of the way, and held there.
    const position = () => bar.evaluate((el) => (el as unknown as { position: number }).position);
    let last = -1;
    await expect
      .poll(async () => {
        const [before, now] = [last, await position()];
        last = now;
        return now > 0 && now === before;
      }, { timeout: 30_000, intervals: [1_000] })
      .toBe(true);
    testInfo.annotations.push({ type: 'held at', description: `${(last * 100).toFixed(1)}%` });
    expect(last).toBeLessThan(1);
    await lightAndDark(page, testInfo, '124-upload-progress');

    world.freezeServer(false);
    await expect(file.getByRole('status')).toHaveText('Uploaded', { timeout: 60_000 });
    const hamlet = await world.rest('hamlet@example.com');
    const files = (await hamlet.call('GET', '/attachments'))['attachments'] as Array<{ name: string; size: number }>;
    expect(files.filter((f) => f.name === 'rehearsal.mp4').map((f) => f.size)).toEqual([SIZE]);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
