/**
 * The session's upload cache against the reference server: images of messages in an open view are
 * prefetched (also those arriving while it is open), images of messages nowhere in view are not;
 * the cache lives beside the account's database and serves its images after the session stops.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDirOf, type AccountSession } from '../../../sync/engine/session.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let t: TestServer;
const tmp = tempDir();
let session: AccountSession;

async function postImage(channel: string, topic: string, name: string): Promise<string> {
  const email = 'iago@example.com';
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name);
  const res = await fetch(`${t.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:${t.server.apiKey(email)}`).toString('base64')}` }, body: fd });
  const url = ((await res.json()) as { url: string }).url;
  const sent = await t.as('iago').post('/messages', { type: 'stream', to: channel, topic, content: `[${name}](${url})` });
  expect(sent.status).toBe(200);
  return url;
}

beforeAll(async () => {
  t = await startTestServer();
  session = openSession(t, tmp.dir);
  session.start();
  await until(() => session.online, 15_000, 'the session to be live');
});
afterAll(async () => {
  await session.close();
  await t.close();
  tmp.cleanup();
});

describe('session uploads', () => {
  it('prefetches the images of messages in an open view, before the page asks, and only those', async () => {
    const before = await postImage('Verona', 'gallery', 'before.png');
    const elsewhere = await postImage('Denmark', 'elsewhere', 'elsewhere.png');
    const view = session.openNarrow(
      { narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'gallery' }], anchor: 'newest', before: 50, after: 0 },
      () => undefined,
    );
    try {
      await until(() => session.uploads.has(before), 10_000, 'the image in view to be prefetched');
      // One arriving while the view is open.
      const live = await postImage('Verona', 'gallery', 'live.png');
      await until(() => session.uploads.has(live), 10_000, 'the new image to be prefetched');
      await session.uploads.prefetched();
      expect(session.uploads.has(elsewhere)).toBe(false);
      expect(existsSync(uploadsDirOf({ dataDir: tmp.dir, realmUrl: t.url, email: 'hamlet@example.com' })!)).toBe(true);

      // The stream stops: kept images are still served, nothing else is asked for.
      await session.stop();
      expect(await session.uploads.get(before)).toMatchObject({ kind: 'image', cached: true });
      expect(await session.uploads.get(elsewhere)).toMatchObject({ kind: 'unavailable' });
    } finally {
      view.close();
    }
  });
});
