/**
 * The reference server's image proxy and avatars (server/routes/media.ts): Zulip's camo URL (its
 * own test vector), the proxy fetching only what it signed, only images, within its size cap and
 * deadline, with JSON error envelopes; uploaded avatars for a few demo users, Zulip's default image
 * for the rest; link previews (`message_embed`) added after sending when the realm wants them, with a
 * rendering-only `update_message`. The "other site" is a loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedHtml, linkPreviewsSettled, readPreview } from '../../server/model/link-previews.js';
import { camoDigest, camoPath } from '../../server/model/media.js';
import { pendingEvents, registerQueue } from './events-helpers.js';
import { startTestServer, withRealm, type TestServer } from './harness.js';
import { ogPage, PIXEL_PNG, startOtherSite, type OtherSite } from './other-site.js';

let t: TestServer;
let site: OtherSite;
beforeAll(async () => {
  t = await startTestServer({ config: { outboundTimeoutMs: 500 } });
  site = await startOtherSite();
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const get = async (path: string) => {
  const res = await fetch(`${t.url}${path}`);
  const body = Buffer.from(await res.arrayBuffer());
  const json = () => JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  return { status: res.status, type: res.headers.get('content-type'), body, json };
};

describe('the image proxy (camo)', () => {
  it("signs as Zulip's get_camo_url does (Zulip's own test vector: key \"dummy\")", () => {
    expect(camoDigest('dummy', 'https://www.google.com/images/srpr/logo4w.png')).toBe('56c362a24201593891955ff526b3b412c0f9fcd2');
  });

  it('a message linking an image of another site: its preview loads through the proxy, without credentials', async () => {
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'camo', content: `look ${site.url}/cat.png` });
    expect(sent.status).toBe(200);
    const msg = await t.as('hamlet').get(`/messages/${String(sent.json.id)}`);
    const src = /<img src="([^"]+)"/.exec(String((msg.json.message as { content: string }).content))?.[1];
    expect(src).toBe(camoPath(t.server.state, `${site.url}/cat.png`));
    const got = await get(src!);
    expect(got).toMatchObject({ status: 200, type: 'image/png' });
    expect(got.body.equals(PIXEL_PNG)).toBe(true);
    // A redirect is followed (and checked again).
    expect((await get(camoPath(t.server.state, `${site.url}/moved.png`))).status).toBe(200);
  });

  it('refuses a wrong signature or encoding, other schemes, non-images, too large and too slow answers, in JSON envelopes', async () => {
    const hex = Buffer.from(`${site.url}/cat.png`).toString('hex');
    const before = site.requests.length;
    for (const bad of [`/external_content/${'0'.repeat(40)}/${hex}`, `/external_content/xyz/${hex}`, `/external_content/${'a'.repeat(40)}/abc`]) {
      const r = await get(bad);
      expect(r.status, bad).toBe(403);
      expect(r.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid signature' });
    }
    expect(site.requests.length).toBe(before); // nothing unsigned is fetched
    const cases: Array<[string, number, RegExp]> = [
      ['file:///etc/passwd', 502, /only http\(s\)/],
      ['https://images.example/chart.png', 502, /no such host/],
      [`${site.url}/not-an-image.png`, 415, /Not an image/],
      [`${site.url}/huge.png`, 502, /too large/],
      [`${site.url}/slow.png`, 502, /timed out/],
      [`${site.url}/missing.png`, 404, /answered 404/],
    ];
    for (const [url, status, msg] of cases) {
      const r = await get(camoPath(t.server.state, url));
      expect(r.status, url).toBe(status);
      expect(r.json(), url).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: expect.stringMatching(msg) });
    }
  });
});

describe('avatars', () => {
  it('a few demo users have an uploaded avatar (served as a PNG); the others get Zulip\'s default image', async () => {
    const users = (await t.as('hamlet').get('/users', { client_gravatar: 'true' })).json.members as Array<{ email: string; avatar_url: string | null }>;
    const of = (who: string) => users.find((u) => u.email === `${who}@example.com`)!.avatar_url;
    expect(of('iago')).toMatch(/^\/user_avatars\/2\/[0-9a-f]{40}\.png\?version=1$/);
    expect(of('desdemona')).toBeNull(); // client_gravatar: computed by the client, as in Zulip
    const full = (await t.as('hamlet').get('/users', { client_gravatar: 'false' })).json.members as Array<{ email: string; avatar_url: string }>;
    expect(full.find((u) => u.email === 'desdemona@example.com')!.avatar_url).toBe('/static/images/default-avatar.png?version=1');

    const img = await get(of('iago')!.split('?')[0]!);
    expect(img).toMatchObject({ status: 200, type: 'image/png' });
    expect(img.body.subarray(1, 4).toString('latin1')).toBe('PNG');
    const medium = await get(of('iago')!.split('?')[0]!.replace('.png', '-medium.png'));
    expect(medium.status).toBe(200);
    const none = await get(`/user_avatars/2/${'a'.repeat(40)}.png`);
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ result: 'error', msg: 'File not found' });
  });
});

describe('link previews', () => {
  it("reads a page's OpenGraph tags (else its title), and writes Zulip's message_embed markup", () => {
    expect(readPreview(ogPage({ title: 'The Rock &amp; roll', description: 'Description text', image: '/rock.jpg' }), 'http://test.org/a')).toEqual({
      title: 'The Rock & roll',
      description: 'Description text',
      image: 'http://test.org/rock.jpg',
    });
    expect(readPreview('<html><head><title>Plain</title><meta name="description" content="d"></head></html>', 'http://test.org/')).toEqual({ title: 'Plain', description: 'd', image: undefined });
    // Zulip's own expected HTML (test_inline_url_embed_preview), the image through the proxy.
    const camo = camoPath(t.server.state, 'http://ia.media-imdb.com/images/rock.jpg');
    expect(embedHtml(t.server.state, 'http://test.org/', { title: 'The Rock', description: 'Description text', image: 'http://ia.media-imdb.com/images/rock.jpg' })).toBe(
      `<div class="message_embed"><a class="message_embed_image" href="http://test.org/" style="background-image: url(&quot;${camo}&quot;)"></a><div class="data-container"><div class="message_embed_title"><a href="http://test.org/" title="The Rock">The Rock</a></div><div class="message_embed_description">Description text</div></div></div>`,
    );
  });

  it('with inline_url_embed_preview on: fetched after sending, added to the HTML, sent as a rendering-only update_message; off: nothing is fetched', async () => {
    site.routes.set('/article', { type: 'text/html; charset=utf-8', body: ogPage({ title: 'Offline first', description: 'Why apps should work without a network.', image: `${site.url}/cat.png` }) });
    site.routes.set('/other', { type: 'text/html', body: ogPage({ title: 'Other', description: 'x', image: `${site.url}/cat.png` }) });
    const queue = await registerQueue(t, 'othello', { event_types: ['update_message'] });
    let id = 0;
    await withRealm(t, { inline_url_embed_preview: true }, async () => {
      const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'previews', content: `read ${site.url}/article please` });
      id = sent.json.id as number;
      await linkPreviewsSettled(t.server.state);
    });
    const rendered = String(((await t.as('hamlet').get(`/messages/${id}`)).json.message as { content: string }).content);
    expect(rendered).toContain(`\n<div class="message_embed"><a class="message_embed_image" href="${site.url}/article" style="background-image: url(&quot;${camoPath(t.server.state, `${site.url}/cat.png`)}&quot;)">`);
    expect(rendered).toContain('<div class="message_embed_description">Why apps should work without a network.</div>');
    const events = await pendingEvents(t, 'othello', queue);
    expect(events).toEqual([expect.objectContaining({ type: 'update_message', rendering_only: true, user_id: null, message_id: id, message_ids: [id], rendered_content: rendered })]);

    const before = site.requests.length;
    await t.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: 'previews', content: `and ${site.url}/other` });
    await linkPreviewsSettled(t.server.state);
    expect(site.requests.slice(before)).toEqual([]);
  });
});
