/**
 * The realm's custom emoji: POST /realm/emoji/{emoji_name} (multipart), the image under
 * /user_avatars, `:name:` rendering them as Zulip does, `realm_emoji` reactions, and the full
 * Unicode set (common/emoji.ts) for names and reactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discPng } from '../../server/demo/emoji-images.js';
import { startTestServer, type HttpResult, type TestServer } from './harness.js';
import { channelId, openQueue, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function addEmoji(who: string, name: string, data: Buffer, type = 'image/png'): Promise<HttpResult> {
  const fd = new FormData();
  fd.append('file', new Blob([data], { type }), 'emoji.png');
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  const c = t.as(who);
  return t.raw('POST', `/realm/emoji/${encodeURIComponent(name)}`, {
    headers: { authorization: `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`, 'content-type': req.headers.get('content-type')! },
    body: Buffer.from(await req.arrayBuffer()),
  });
}

async function send(content: string): Promise<{ id: number; content: string }> {
  const id = (await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: uniqueTopic(), content })).json.id as number;
  return (await t.as('hamlet').get(`/messages/${id}`)).json.message as { id: number; content: string };
}

describe('custom emoji', () => {
  it('POST /realm/emoji/{name} stores the image, lists it, serves it and tells everyone (realm_emoji update)', async () => {
    const q = openQueue(t, 'othello', { eventTypes: ['realm_emoji'] });
    const png = discPng([10, 20, 30], 16);
    expect((await addEmoji('hamlet', 'yorick', png)).json).toMatchObject({ result: 'success' });
    const list = (await t.as('othello').get('/realm/emoji')).json.emoji as Record<string, { id: string; name: string; source_url: string; author_id: number }>;
    const mine = Object.values(list).find((e) => e.name === 'yorick')!;
    expect(mine).toMatchObject({ source_url: `/user_avatars/2/emoji/images/${mine.id}.png`, author_id: t.userId('hamlet'), deactivated: false });
    const img = await fetch(`${t.url}${mine.source_url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    const events = await q.ofType('realm_emoji');
    expect(events.at(-1)).toMatchObject({ type: 'realm_emoji', op: 'update', realm_emoji: { [mine.id]: { name: 'yorick' } } });
  });

  it('refuses a taken name, a bad name and a non-image', async () => {
    expect((await addEmoji('hamlet', 'shipit', discPng([1, 2, 3]))).json).toMatchObject({ result: 'error', msg: 'A custom emoji with this name already exists.' });
    expect((await addEmoji('hamlet', 'Bad Name', discPng([1, 2, 3]))).json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await addEmoji('hamlet', 'svg_one', Buffer.from('<svg/>'), 'image/svg+xml')).json).toMatchObject({ result: 'error', msg: 'Invalid image format' });
    expect((await fetch(`${t.url}/user_avatars/2/emoji/images/999.png`)).status).toBe(404);
  });

  it('`:name:` renders a custom emoji as Zulip does (an img with class emoji), Unicode ones as spans', async () => {
    const m = await send(':shipit: :octopus: :working_on_it: :no_such_emoji:');
    expect(m.content).toContain('<img alt=":shipit:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="shipit">');
    expect(m.content).toContain('class="emoji emoji-1f419"');
    expect(m.content).toContain('class="emoji emoji-1f6e0"');
    expect(m.content).toContain(':no_such_emoji:');
    // Names only the full set has (iamcal's, flags, ZWJ sequences).
    expect((await send(':flag-de: :rainbow-flag: :avocado:')).content).toMatch(/emoji-1f1e9-1f1ea.*emoji-1f3f3-200d-1f308.*emoji-1f951/);
  });

  it('realm_emoji reactions: by name alone, or with the id as code; a wrong id or unknown name is refused', async () => {
    const m = await send('react to me');
    const react = (who: string, p: Record<string, string>) => t.as(who).post(`/messages/${m.id}/reactions`, p);
    expect((await react('othello', { emoji_name: 'shipit' })).status).toBe(200);
    expect((await react('hamlet', { emoji_name: 'party_parrot', emoji_code: '2', reaction_type: 'realm_emoji' })).status).toBe(200);
    expect((await react('hamlet', { emoji_name: 'party_parrot', emoji_code: '99', reaction_type: 'realm_emoji' })).json).toMatchObject({ msg: 'Invalid custom emoji.' });
    expect((await react('hamlet', { emoji_name: 'nope', emoji_code: '99', reaction_type: 'realm_emoji' })).json).toMatchObject({ msg: 'Invalid emoji name.' });
    // Any emoji of the full Unicode set is accepted with its Zulip code.
    expect((await react('hamlet', { emoji_name: 'avocado', emoji_code: '1f951', reaction_type: 'unicode_emoji' })).status).toBe(200);
    const reactions = ((await t.as('hamlet').get(`/messages/${m.id}`)).json.message as { reactions: unknown[] }).reactions;
    expect(reactions).toEqual([
      { emoji_name: 'shipit', emoji_code: '1', reaction_type: 'realm_emoji', user_id: t.userId('othello') },
      { emoji_name: 'party_parrot', emoji_code: '2', reaction_type: 'realm_emoji', user_id: t.userId('hamlet') },
      { emoji_name: 'avocado', emoji_code: '1f951', reaction_type: 'unicode_emoji', user_id: t.userId('hamlet') },
    ]);
  });

  it("register's server_emoji_data_url serves the names it accepts per code, canonical first (Zulip's emoji_api.json)", async () => {
    const url = (await t.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['realm']) })).json.server_emoji_data_url as string;
    expect(url).toBe(`${t.url}/static/generated/emoji/emoji_api.json`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const table = ((await res.json()) as { code_to_names: Record<string, string[]> }).code_to_names;
    expect(table['1f44d']?.[0]).toBe('+1');
    expect(table['1f44d']).toContain('thumbs_up');
    expect(table['263a']?.[0]).toBe('smile');
    expect(Object.keys(table).length).toBeGreaterThan(1800);
  });
});
