/**
 * `upload_file` against the reference server through the fault proxy: each queued file is
 * uploaded exactly once. A lost answer (dropped, truncated, a gateway's 502) is verified by
 * reading `GET /attachments`, never resent blindly; one that never landed is sent again; two
 * identical files are two uploads.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_CONTEXT, runtimeKind, type UploadContext } from '../../../sync/outbox/kinds.js';
import { uploadFileKind, type UploadFileArgs } from '../../../sync/outbox/mutations/upload-file.js';
import { OutboxFiles } from '../../../sync/uploads/outbox-files.js';
import { landedUploadUrls } from '../../../sync/db/queries/outbox-uploads.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { outboxEnv, type Env } from './outbox-env.js';

let t: TestServer;
let env: Env;
let files: OutboxFiles;
const kept: string[] = [];
const kind = runtimeKind(uploadFileKind);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  files = new OutboxFiles(undefined);
  kept.length = 0;
  // The env's own store plays the session's (made below, read only once draining).
  const uploads: UploadContext = {
    read: (id) => files.read(id),
    urlOf: (tmp) => env.store.resolvedTempId(tmp),
    discarded: () => false,
    landedUrls: () => landedUploadUrls(env.store.db),
    keep: (url) => void kept.push(url),
  };
  env = await outboxEnv({ kinds: [kind], email: 'cordelia@example.com', server: t, context: { ...NO_CONTEXT, uploads } });
});
afterEach(() => env.close());

function enqueue(filename: string, data: Buffer, mime = 'application/pdf'): { id: number; tmp: string } {
  const tmp = env.store.newTempId();
  const args: UploadFileArgs = { upload: tmp, file: files.stage(data), filename, mime_type: mime, size: data.length };
  return { id: env.store.enqueue(kind, args, { enqueued_at: Math.floor(env.time.now() / 1000) }).id, tmp };
}

const posts = () => env.requests(/^POST \/api\/v1\/user_uploads$/);
const attachments = async () => (await t.as('cordelia').get('/attachments')).json.attachments as Array<{ name: string; path_id: string; size: number }>;

describe('upload_file against the reference server', () => {
  it('uploads the copy as multipart; the URL is recorded for its temporary id and the file kept', async () => {
    const before = (await attachments()).length;
    const { tmp } = enqueue('report 2026.pdf', Buffer.from('%PDF-1.4 report'));
    await env.drain();
    const after = await attachments();
    expect(after).toHaveLength(before + 1);
    const mine = after.at(-1)!;
    expect(mine).toMatchObject({ name: 'report 2026.pdf', size: 15 });
    const url = env.store.resolvedTempId(tmp);
    expect(url).toBe(`/user_uploads/${mine.path_id}`);
    expect(kept).toEqual([url]);
    // The server has the very bytes.
    const served = await fetch(`${t.url}${url!}`, { headers: { authorization: `Basic ${Buffer.from(`cordelia@example.com:${t.server.apiKey('cordelia@example.com')}`).toString('base64')}` } });
    expect(await served.text()).toBe('%PDF-1.4 report');
  });

  for (const fault of [{ kind: 'drop' }, { kind: 'truncate' }, { kind: 'gateway', status: 502 }] as const) {
    it(`a lost answer (${fault.kind}) after the server stored it: verified by reading GET /attachments, not resent`, async () => {
      const before = (await attachments()).length;
      env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_uploads$/ }, fault, 1);
      const { id, tmp } = enqueue(`lost-${fault.kind}.pdf`, Buffer.from(`pdf ${fault.kind}`));
      await env.drain();
      expect(posts()).toBe(1);
      expect(env.requests(/^GET \/api\/v1\/attachments$/)).toBeGreaterThanOrEqual(1);
      const row = env.store.get(id)!;
      expect(row.state).toBe('done');
      expect(JSON.stringify(row.history)).toContain('"verified":"applied"');
      const after = await attachments();
      expect(after).toHaveLength(before + 1);
      expect(env.store.resolvedTempId(tmp)).toBe(`/user_uploads/${after.at(-1)!.path_id}`);
    });
  }

  it('a lost answer to a request that never landed is sent again: one upload', async () => {
    const before = (await attachments()).length;
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_uploads$/ }, { kind: 'stall', apply: false }, 1);
    const { id } = enqueue('stalled.pdf', Buffer.from('stalled'));
    await env.drain();
    expect(posts()).toBe(2);
    expect(JSON.stringify(env.store.get(id)!.history)).toContain('"verified":"not_applied"');
    expect(await attachments()).toHaveLength(before + 1);
  });

  it('two identical files are two uploads, even when the second answer is lost: the first is not taken for it', async () => {
    const before = (await attachments()).length;
    let n = 0;
    env.proxy.rule((req) => req.method === 'POST' && req.path === '/api/v1/user_uploads' && ++n === 2, { kind: 'drop' }, 1);
    const a = enqueue('same.png', Buffer.from('same bytes'), 'image/png');
    const b = enqueue('same.png', Buffer.from('same bytes'), 'image/png');
    await env.drain();
    expect(posts()).toBe(2);
    const after = await attachments();
    expect(after).toHaveLength(before + 2);
    const urls = [env.store.resolvedTempId(a.tmp), env.store.resolvedTempId(b.tmp)];
    expect(new Set(urls).size).toBe(2);
    expect(urls.sort()).toEqual(after.slice(-2).map((x) => `/user_uploads/${x.path_id}`).sort());
  });

  it('a copy that is gone fails the row in words (nothing is sent)', async () => {
    const { id } = enqueue('vanished.pdf', Buffer.from('x'));
    files.sweep(new Set());
    await env.drain();
    expect(posts()).toBe(0);
    const row = env.store.get(id)!;
    expect(row.state).toBe('failed');
    expect(JSON.stringify(row.lastError)).toContain('vanished.pdf');
  });
});
