/**
 * The browser-mode host's route for files the user attaches (`/outbox-files`): only our page may
 * post bytes (an Origin of this host is required, and the page's secret in a header, which a
 * cross-site form can send neither of), the engine copies them into the open account's data
 * directory, and a staged image is shown back only with the uploads key.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../host/browser/server.js';
import { fakeRenderer, signIn } from './browser-helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let host: BrowserHost;
let origin: string;
let secret: string;
let key: string;
const fake = fakeRenderer();
const dataDir = path.join(fake.root, 'data');

beforeAll(async () => {
  host = await startBrowserHost({ dataDir, rendererDir: fake.rendererDir, sandbox: true });
  origin = `http://127.0.0.1:${host.port}`;
  ({ secret, uploadKey: key } = await signIn(host.url));
}, 60_000);
afterAll(async () => {
  await host.close();
  rmSync(fake.root, { recursive: true, force: true });
});

const post = (body: Buffer, headers: Record<string, string>) => fetch(`${origin}/outbox-files`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body: new Uint8Array(body) });
const staged = () => readdirSync(path.join(dataDir, 'accounts')).filter((n) => n.endsWith('.outbox-files')).flatMap((d) => readdirSync(path.join(dataDir, 'accounts', d)));

describe('browser host: /outbox-files', () => {
  it('our page posts a file with its secret; the copy is on disk and a staged image is shown back with the uploads key', async () => {
    const r = await post(PNG, { origin, 'x-zulip-offline-secret': secret });
    expect(r.status).toBe(200);
    const answer = (await r.json()) as { ok: boolean; value: { file: string; size: number } };
    expect(answer).toMatchObject({ ok: true, value: { size: PNG.length } });
    expect(staged()).toContain(answer.value.file);
    const shown = await fetch(`${origin}/outbox-files/${answer.value.file}?k=${key}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await shown.arrayBuffer()).equals(PNG)).toBe(true);
    // Without the key, or with another, nothing.
    expect((await fetch(`${origin}/outbox-files/${answer.value.file}`)).status).toBe(403);
    expect((await fetch(`${origin}/outbox-files/${answer.value.file}?k=${'0'.repeat(64)}`)).status).toBe(403);
  });

  it('refuses a post without an Origin, from another origin, or without the secret: nothing is staged', async () => {
    const before = staged().length;
    expect((await post(PNG, { 'x-zulip-offline-secret': secret })).status).toBe(403);
    expect((await post(PNG, { origin: 'http://evil.example', 'x-zulip-offline-secret': secret })).status).toBe(403);
    expect((await post(PNG, { origin })).status).toBe(403);
    expect((await post(PNG, { origin, 'x-zulip-offline-secret': 'f'.repeat(64) })).status).toBe(403);
    expect(staged().length).toBe(before);
  });

  it('shows only images: a staged PDF or an unknown id is 404', async () => {
    const pdf = (await (await post(Buffer.from('%PDF-1.4'), { origin, 'x-zulip-offline-secret': secret })).json()) as { value: { file: string } };
    expect((await fetch(`${origin}/outbox-files/${pdf.value.file}?k=${key}`)).status).toBe(404);
    expect((await fetch(`${origin}/outbox-files/${'a'.repeat(32)}?k=${key}`)).status).toBe(404);
    expect((await fetch(`${origin}/outbox-files/..%2F..%2Fapi-keys.json?k=${key}`)).status).toBe(404);
  });
});
