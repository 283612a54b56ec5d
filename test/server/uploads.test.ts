/**
 * POST /user_uploads and attachment tracking (spec "Detached upload"; the edits helper uses
 * syncAttachments and detachedUploads from model/uploads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../server/markdown/render.js';
import { detachedUploads, syncAttachments } from '../../server/model/uploads.js';
import { startTestServer, type HttpResult, type TestServer } from './harness.js';
import { channelId } from './messages-util.js';

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
