/**
 * POST /user_uploads and attachment tracking (spec "Detached upload"; the edits helper uses
 * syncAttachments and detachedUploads from model/uploads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../server/markdown/render.js';
import { detachedUploads, syncAttachments } from '../../server/model/uploads.js';
import { startTestServer, type HttpResult, type TestServer } from './harness.js';
import { channelId } from './messages-util.js';
import { pendingEvents, registerQueue } from './events-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function upload(who: string, files: Array<{ name: string; data: string; type?: string }>): Promise<HttpResult> {
  const fd = new FormData();
  files.forEach((f, i) => fd.append(`file-${i}`, new Blob([f.data], { type: f.type ?? 'text/plain' }), f.name));
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  const c = t.as(who);
  return t.raw('POST', '/user_uploads', {
    headers: { authorization: `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`, 'content-type': req.headers.get('content-type')! },
    body: Buffer.from(await req.arrayBuffer()),
  });
}

const attachmentsOf = (messageId: number) =>
  t.server.state.db.prepare('SELECT a.path_id FROM attachment_messages am JOIN attachments a ON a.id = am.attachment_id WHERE am.message_id = ?').pluck().all(messageId);

describe('POST /user_uploads', () => {
  it('stores one file and answers url, the deprecated uri, and filename', async () => {
    const r = await upload('hamlet', [{ name: 'notes.txt', data: 'hello' }]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'success', filename: 'notes.txt' });
    expect(r.json.url).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]+\/notes\.txt$/);
    expect(r.json.uri).toBe(r.json.url);
  });

  it('unsafe file names are sanitized in the URL', async () => {
    const r = await upload('hamlet', [{ name: 'my report (final)!.pdf', data: 'x' }]);
    expect(r.json.url).toMatch(/\/my-report-final\.pdf$/);
  });

  it('no file is BAD_REQUEST', async () => {
    const c = t.as('hamlet');
    const r = await c.post('/user_uploads', {});
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You must specify a file to upload' });
  });

  it('more than one file is BAD_REQUEST', async () => {
    const r = await upload('hamlet', [
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    ]);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You may only upload one file at a time' });
  });
});

describe('GET /attachments, DELETE /attachments/{id} and attachment events', () => {
  it("lists the user's own files with the messages linking them; deleting one stops serving it; events follow", async () => {
    const q = await registerQueue(t, 'iago', { event_types: ['attachment'] });
    const up = await upload('iago', [{ name: 'list me.txt', data: 'hello!' }]);
    await upload('othello', [{ name: 'not-iagos.txt', data: 'x' }]);
    const url = up.json.url as string;
    const sent = await t.as('iago').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'files', content: `[f](${url})` });
    const r = await t.as('iago').get('/attachments');
    expect(r.status).toBe(200);
    const mine = r.json.attachments as Array<Record<string, unknown>>;
    expect(mine.map((a) => a.path_id)).toEqual([url.replace('/user_uploads/', '')]);
    expect(mine[0]).toMatchObject({ name: 'list me.txt', size: 6, messages: [{ id: sent.json.id }] });
    expect(mine[0]!.create_time).toBe(t.clock.now());
    expect(r.json.upload_space_used).toBeGreaterThanOrEqual(6);

    const id = mine[0]!.id as number;
    expect((await t.as('othello').delete(`/attachments/${id}`)).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid attachment' });
    expect((await t.as('iago').delete(`/attachments/${id}`)).json).toMatchObject({ result: 'success' });
    expect((await t.as('iago').delete(`/attachments/${id}`)).json).toMatchObject({ msg: 'Invalid attachment' });
    expect((await t.as('iago').get('/attachments')).json.attachments).toEqual([]);
    const events = await pendingEvents(t, 'iago', q);
    expect(events.map((e) => [e.type, e.op, (e.attachment as { id: number }).id])).toEqual([
      ['attachment', 'add', id],
      ['attachment', 'update', id],
      ['attachment', 'remove', id],
    ]);
  });

  it("a file over the realm's max_file_upload_size_mib is refused in Zulip's words", async () => {
    const small = await startTestServer({ config: { maxFileUploadMib: 1 } });
    try {
      const fd = new FormData();
      fd.append('file', new Blob([Buffer.alloc(1024 * 1024 + 1)]), 'big.bin');
      const req = new Request('http://localhost/', { method: 'POST', body: fd });
      const c = small.as('hamlet');
      const r = await small.raw('POST', '/user_uploads', {
        headers: { authorization: `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`, 'content-type': req.headers.get('content-type')! },
        body: Buffer.from(await req.arrayBuffer()),
      });
      expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: "File is larger than this server's configured maximum upload size (1 MiB)." });
    } finally {
      await small.close();
    }
  });
});

describe('attachment tracking', () => {
  it('a message linking /user_uploads/<path_id> claims the upload and has:attachment matches', async () => {
    const up = await upload('hamlet', [{ name: 'plan.pdf', data: 'pdf' }]);
    const url = up.json.url as string;
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'plans', content: `[plan.pdf](${url})` });
    const id = sent.json.id as number;
    expect(attachmentsOf(id)).toEqual([url.replace('/user_uploads/', '')]);
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'has', operand: 'attachment' }] });
    expect((r.json.messages as Array<{ id: number }>).map((m) => m.id)).toContain(id);
  });

  it('absolute realm URLs to uploads count too', async () => {
    const up = await upload('hamlet', [{ name: 'abs.txt', data: 'x' }]);
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'plans', content: `see ${t.url}${up.json.url as string}` });
    expect(attachmentsOf(sent.json.id as number)).toHaveLength(1);
  });

  it("another user's unattached upload is not claimed", async () => {
    const up = await upload('othello', [{ name: 'mine.txt', data: 'x' }]);
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'plans', content: `[x](${up.json.url as string})` });
    expect(attachmentsOf(sent.json.id as number)).toEqual([]);
  });

  it('syncAttachments after an edit reports unlinked uploads; detachedUploads lists the actor’s orphaned files', async () => {
    const up = await upload('hamlet', [{ name: 'old.txt', data: 'old' }]);
    const url = up.json.url as string;
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'plans', content: `[old](${url})` });
    const id = sent.json.id as number;
    const srv = t.server.state;
    const rendered = renderMarkdown(srv, 'no more links', { senderId: t.userId('hamlet') });
    const { linked, unlinked } = syncAttachments(srv, id, rendered);
    expect(linked).toEqual([]);
    expect(unlinked).toHaveLength(1);
    expect(srv.db.prepare('SELECT has_attachment FROM messages WHERE id = ?').pluck().get(id)).toBe(0);
    const detached = detachedUploads(srv, t.userId('hamlet'), unlinked);
    expect(detached).toEqual([
      { id: unlinked[0], name: 'old.txt', path_id: url.replace('/user_uploads/', ''), size: 3, create_time: expect.any(Number), messages: [] },
    ]);
    expect(detached[0]!.create_time).toBe(t.clock.now());
    expect(detachedUploads(srv, t.userId('othello'), unlinked)).toEqual([]);
  });
});

describe('reading uploads: GET /user_uploads/{realm}/{path} (file, Basic auth) and the temporary URL', () => {
  const basic = (who: string) => {
    const c = t.as(who);
    return `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`;
  };
  const fetchRoot = (path: string, who?: string) => fetch(`${t.url}${path}`, { headers: who ? { authorization: basic(who) } : {} });

  it('the owner reads the file with API-key Basic auth, outside /api/v1, with safe headers', async () => {
    const up = await upload('hamlet', [{ name: 'notes.txt', data: 'the rest is silence', type: 'text/plain' }]);
    const res = await fetchRoot(up.json.url as string, 'hamlet');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('the rest is silence');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="notes\.txt"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('HTML or unknown types download as application/octet-stream attachments, never render', async () => {
    const up = await upload('hamlet', [{ name: 'page.html', data: '<script>alert(1)</script>', type: 'text/html' }]);
    const res = await fetchRoot(up.json.url as string, 'hamlet');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('without credentials it is 401 UNAUTHORIZED; a bad key 401 INVALID_API_KEY (JSON envelopes)', async () => {
    const up = await upload('hamlet', [{ name: 'private.txt', data: 'x' }]);
    const none = await fetchRoot(up.json.url as string);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    const bad = await fetch(`${t.url}${up.json.url as string}`, { headers: { authorization: `Basic ${Buffer.from('hamlet@example.com:nope').toString('base64')}` } });
    expect(await bad.json()).toMatchObject({ code: 'INVALID_API_KEY' });
  });

  it('others may read it once a message they can read links it; before that 403, and a private channel stays closed', async () => {
    const up = await upload('hamlet', [{ name: 'shared.txt', data: 'shared' }]);
    const url = up.json.url as string;
    const before = await fetchRoot(url, 'othello');
    expect(before.status).toBe(403);
    expect(await before.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' });
    await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'core team'), topic: 'files', content: `[shared](${url})` });
    expect((await fetchRoot(url, 'othello')).status).toBe(403);
    expect((await fetchRoot(url, 'iago')).status).toBe(200);
    await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic: 'files', content: `[shared](${url})` });
    const after = await fetchRoot(url, 'othello');
    expect(after.status).toBe(200);
    expect(await after.text()).toBe('shared');
  });

  it('an unknown file or realm is 404 "File not found"', async () => {
    for (const path of ['/user_uploads/2/00/nothing/here.txt', '/user_uploads/7/00/nothing/here.txt']) {
      const res = await fetchRoot(path, 'hamlet');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'File not found' });
    }
  });

  it('GET /api/v1/user_uploads/{realm}/{path} answers a temporary URL that serves the file without auth for 60 s', async () => {
    const up = await upload('hamlet', [{ name: 'temp file.txt', data: 'for a minute' }]);
    // The same path as the file's URL, asked of the API (t.as(...) prefixes /api/v1).
    const r = await t.as('hamlet').get(up.json.url as string);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['msg', 'result', 'url']);
    const temp = r.json.url as string;
    expect(temp).toMatch(/^\/user_uploads\/temporary\/[0-9A-F]+\/temp-file\.txt$/);
    const res = await fetchRoot(temp);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('for a minute');
    t.clock.advance(61_000);
    const late = await fetchRoot(temp);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid token' });
  });

  it('a forged or altered token, or another file name, is refused', async () => {
    const up = await upload('hamlet', [{ name: 'sealed.txt', data: 'sealed' }]);
    const temp = (await t.as('hamlet').get(up.json.url as string)).json.url as string;
    const [, , , token, name] = temp.split('/');
    const flipped = token!.slice(0, -2) + (token!.endsWith('41') ? '42' : '41');
    expect(await (await fetchRoot(`/user_uploads/temporary/${flipped}/${name}`)).json()).toMatchObject({ msg: 'Invalid token' });
    const forged = Buffer.from(`2/aa/bb/sealed.txt:${Math.floor(t.clock.now() / 1000) + 60}:AAAA`).toString('hex');
    expect(await (await fetchRoot(`/user_uploads/temporary/${forged}/sealed.txt`)).json()).toMatchObject({ msg: 'Invalid token' });
    expect(await (await fetchRoot(`/user_uploads/temporary/${token}/other.txt`)).json()).toMatchObject({ msg: 'Invalid filename' });
  });

  it('the API form answers 403 for a file the user may not read', async () => {
    const up = await upload('hamlet', [{ name: 'mine.txt', data: 'x' }]);
    const r = await t.as('othello').get(up.json.url as string);
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' });
  });
});
