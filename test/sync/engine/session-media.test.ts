/**
 * The session's media against the reference server and a loopback "other site": in an open view,
 * an image of another site (through the realm's proxy), the sender's uploaded avatar and a link
 * preview's image (arriving later, as a rendering-only update the engine applies) are fetched ahead
 * into the upload cache, so they are there offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSession } from '../../../sync/engine/session.js';
import { avatarPath } from '../../../sync/protocol/uploads.js';
import { camoPath } from '../../../server/model/media.js';
import { setRealmSettings } from '../../../server/model/realm.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { ogPage, startOtherSite, type OtherSite } from '../../server/other-site.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
let site: OtherSite;
const tmp = tempDir();
let session: AccountSession;

beforeAll(async () => {
  t = await startTestServer();
  site = await startOtherSite();
  setRealmSettings(t.server.state, { inline_url_embed_preview: true });
  session = openSession(t, tmp.dir);
  session.start();
  await until(() => session.online, 15_000, 'the session to be live');
});
afterAll(async () => {
  await session.close();
  await t.close();
  await site.close();
  tmp.cleanup();
});

describe('session media', () => {
  it("prefetches a view's proxied images, its senders' avatars and link previews' images; the preview's update is applied", async () => {
    site.routes.set('/article', { type: 'text/html', body: ogPage({ title: 'Offline first', description: 'd', image: `${site.url}/cat.png?preview` }) });
    site.routes.set('/cat.png?preview', { type: 'image/png', body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64') });
    await t.as('iago').post('/messages', { type: 'stream', to: 'Verona', topic: 'media', content: `look ${site.url}/cat.png` });
    const shown = new Map<number, string>();
    const view = session.openNarrow({ narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'media' }], anchor: 'newest', before: 50, after: 0 }, (cs) => {
      for (const m of [...cs.added, ...cs.updated]) shown.set(m.id, m.content);
    });
    try {
      const proxied = camoPath(t.server.state, `${site.url}/cat.png`);
      await until(() => session.uploads.has(proxied), 10_000, 'the proxied image to be prefetched');
      const iago = (await t.as('hamlet').get(`/users/${t.userId('iago')}`, { client_gravatar: 'false' })).json.user as { avatar_url: string };
      await until(() => session.uploads.has(avatarPath(iago.avatar_url, t.url)!), 10_000, "the sender's avatar to be prefetched");

      // A link preview arrives after sending, as a rendering-only update; its image is fetched too.
      const sent = await t.as('iago').post('/messages', { type: 'stream', to: 'Verona', topic: 'media', content: `read ${site.url}/article` });
      const previewImage = camoPath(t.server.state, `${site.url}/cat.png?preview`);
      await until(() => session.uploads.has(previewImage), 10_000, "the preview's image to be prefetched");
      await until(() => (shown.get(sent.json.id as number) ?? '').includes('class="message_embed"'), 10_000, 'the view to show the preview');
      expect(session.uploads.keptPaths()).toEqual(expect.arrayContaining([proxied, avatarPath(iago.avatar_url, t.url), previewImage]));
    } finally {
      view.close();
    }
  });
});
