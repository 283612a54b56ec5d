/**
 * Uploads through the session: files attached offline are copied into the account's data
 * directory and queued; a message naming them waits behind them and, once they land, is sent with
 * each file's server URL read from its upload's result (by field); each file is uploaded once, the
 * copies go, an image stays readable offline from the upload cache. Discarding a queued upload
 * removes its copy and fails the message that named it, in words.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { serverTopic, sessionEnv, type SessionEnv } from './session-support.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n% a small pdf\n');

let t: TestServer;
let env: SessionEnv;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await sessionEnv(t);
});
afterEach(() => env.close());

const attachments = async () => (await t.as('hamlet').get('/attachments')).json.attachments as Array<{ id: number; name: string; path_id: string; messages: Array<{ id: number }> }>;

function queue(name: string, bytes: Buffer, mime: string) {
  const { s } = env;
  const staged = s.stageUpload(bytes);
  return { ...outboxIntents(s.db, s.outbox).uploadFile({ file: staged.file, filename: name, mime_type: mime, size: staged.size }), file: staged.file };
}

describe('uploads through the session', () => {
  it('offline: a message with a pasted image and a PDF waits behind both; online each lands once and the message links them', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const before = (await attachments()).length;
    await proxy.pause();
    const image = queue('pasted image.png', PNG, 'image/png');
    const pdf = queue('plan.pdf', PDF, 'application/pdf');
    const to = { type: 'channel' as const, channel_id: channelId(t, 'Verona'), topic: 'files offline' };
    intents.sendMessage({ to, content: 'see attached', uploads: [image.upload_id, pdf.upload_id] });
    // The copies are on disk beside the database, named by id only.
    const dir = s.outbox.files.dir!;
    expect(readdirSync(dir).sort()).toEqual([image.file, pdf.file].sort());

    // Back online; the image's answer is lost after the server stored it.
    proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_uploads$/ }, { kind: 'drop' }, 1);
    await proxy.resume();
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'all sent');

    const files = (await attachments()).slice(before);
    expect(files.map((f) => f.name).sort()).toEqual(['pasted image.png', 'plan.pdf']);
    const [msg] = await serverTopic(t, 'files offline');
    expect(msg).toBeDefined();
    const url = (name: string) => `/user_uploads/${files.find((f) => f.name === name)!.path_id}`;
    expect(msg!.content).toBe(`see attached\n[pasted image.png](${url('pasted image.png')})\n[plan.pdf](${url('plan.pdf')})`);
    // The server claimed both for the message.
    expect(files.every((f) => f.messages.some((m) => m.id === msg!.id))).toBe(true);
    // Both uploads went before the message.
    const order = proxy.log.filter((l) => l.method === 'POST' && /\/(user_uploads|messages)$/.test(l.path)).map((l) => l.path.split('/').pop());
    expect(order.indexOf('messages')).toBeGreaterThan(order.lastIndexOf('user_uploads'));
    // The copies are gone; the image is readable from the upload cache.
    await until(() => readdirSync(dir).length === 0, 5_000, 'copies removed');
    await until(() => s.uploads.has(url('pasted image.png')), 5_000, 'image kept');
    expect(s.uploads.has(url('plan.pdf'))).toBe(false);
  });

  it("reports how far each upload's request went, by the upload_id the command answered, ending at the whole body", async () => {
    const { s } = env;
    const seen: Array<{ upload_id: number; sent: number; total: number }> = [];
    const off = s.onUploadProgress((p) => seen.push(p));
    const big = queue('big.bin', Buffer.alloc(3 * 1024 * 1024, 7), 'application/octet-stream');
    const small = queue('small.png', PNG, 'image/png');
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'both sent');
    off();
    const of = (id: number) => seen.filter((p) => p.upload_id === id);
    for (const id of [big.upload_id, small.upload_id]) {
      const reports = of(id);
      expect(reports.length).toBeGreaterThan(0);
      expect(reports.at(-1)!.sent).toBe(reports.at(-1)!.total);
      expect(reports.every((p, i) => i === 0 || p.sent > reports[i - 1]!.sent)).toBe(true);
    }
    // The body is the file and its multipart framing.
    expect(of(big.upload_id).at(-1)!.total).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('discarding a queued upload removes its copy; the message that named it fails and says why', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    // The server refuses the file: the upload fails, and holds the message back until the user acts.
    const refusal = JSON.stringify({ result: 'error', msg: 'Upload refused', code: 'BAD_REQUEST' });
    proxy.rule({ method: 'POST', path: /^\/api\/v1\/user_uploads$/ }, { kind: 'answer', apply: false, status: 400, body: refusal, headers: { 'content-type': 'application/json' } }, 1);
    const pdf = queue('dropped.pdf', PDF, 'application/pdf');
    const sent = intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'files discarded' }, content: 'the plan', uploads: [pdf.upload_id] });
    const dir = s.outbox.files.dir!;
    expect(existsSync(`${dir}/${pdf.file}`)).toBe(true);
    await until(() => s.outbox.store.get(pdf.outbox_id)?.state === 'failed', 10_000, 'the upload to fail');
    expect(s.outbox.store.get(sent.outbox_id)?.state).toBe('queued');
    s.outbox.discard(pdf.outbox_id);
    await until(() => !existsSync(`${dir}/${pdf.file}`), 5_000, 'copy removed');
    s.nudge('network');
    await until(() => s.outbox.store.get(sent.outbox_id)?.state === 'failed', 10_000, 'the message to fail');
    expect(JSON.stringify(s.outbox.store.get(sent.outbox_id)!.lastError)).toContain('“dropped.pdf” was discarded before it was uploaded');
    expect(await serverTopic(t, 'files discarded')).toEqual([]);
    // A message cannot name a file already discarded.
    expect(() => intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'files discarded' }, content: 'again', uploads: [pdf.upload_id] })).toThrow(/removed from the outbox/);
  });

  it("a file over the realm's max_file_upload_size_mib is refused before anything is queued", () => {
    const { s } = env;
    // The reference server's realm says 25 MiB (register's max_file_upload_size_mib).
    expect(() => s.stageUpload(Buffer.alloc(25 * 1024 * 1024 + 1))).toThrow(/larger than this organization's limit of 25 MiB/);
    const dir = s.outbox.files.dir!;
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    expect(() => outboxIntents(s.db, s.outbox).uploadFile({ file: 'a'.repeat(32), filename: 'big.bin', mime_type: '', size: 26 * 1024 * 1024 })).toThrow(/larger than this organization's limit of 25 MiB/);
  });
});

describe('an edit with files', () => {
  it('offline: two edits attaching files coalesce keeping both files; the edit runs after them, and its lost answer is verified with the links, not resent', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const before = (await attachments()).length;
    intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'edit files' }, content: 'the notes' });
    await until(() => s.outbox.counts().pending === 0, 10_000, 'sent');
    const [msg] = await serverTopic(t, 'edit files');
    await proxy.pause();
    const image = queue('photo.png', PNG, 'image/png');
    const first = intents.updateMessageContent({ message_id: msg!.id, content: 'the notes, edited', base_raw_content: 'the notes', uploads: [image.upload_id] });
    // A name of its own: the server is shared by this file's tests, and an upload whose answer is
    // lost (cut while going offline) is verified by name and size, which the first test's plan.pdf has.
    const pdf = queue('edit-plan.pdf', PDF, 'application/pdf');
    const second = intents.updateMessageContent({ message_id: msg!.id, content: 'the notes, edited twice', base_raw_content: 'the notes, edited', uploads: [pdf.upload_id] });
    // One edit left, behind both files, naming both, from the text the user first saw.
    const live = s.outbox.store.liveRows(`message:${msg!.id}`);
    expect(live.map((r) => r.kind)).toEqual(['upload_file', 'upload_file', 'update_message_content']);
    expect(live[2]!.id).toBe(second.outbox_id);
    expect(s.outbox.store.get(first.outbox_id)?.state).toBe('discarded');
    expect(live[2]!.args).toMatchObject({ content: 'the notes, edited twice', uploads: [{ upload: `tmp-${-image.upload_id}` }, { upload: `tmp-${-pdf.upload_id}` }] });
    expect(live[2]!.base).toMatchObject({ raw_content: 'the notes' });

    // Back online; the edit's answer is lost after the server stored it.
    proxy.rule({ method: 'PATCH', path: /^\/api\/v1\/messages\/\d+$/ }, { kind: 'drop' }, 1);
    await proxy.resume();
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'all sent');
    expect(s.outbox.store.get(second.outbox_id)?.state).toBe('done');
    const files = (await attachments()).slice(before);
    expect(files.map((f) => f.name).sort()).toEqual(['edit-plan.pdf', 'photo.png']);
    const url = (name: string) => `/user_uploads/${files.find((f) => f.name === name)!.path_id}`;
    const [edited] = await serverTopic(t, 'edit files');
    expect(edited!.content).toBe(`the notes, edited twice\n[photo.png](${url('photo.png')})\n[edit-plan.pdf](${url('edit-plan.pdf')})`);
    // Sent once: verified after the lost answer.
    expect(proxy.log.filter((l) => l.method === 'PATCH').length).toBe(1);
  });
});
