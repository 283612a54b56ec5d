/**
 * `update_message_content` end to end: the real pusher over the real API client, through the fault
 * proxy, to the reference server. Another device of the same user plays "somebody else" (only the
 * sender may edit content).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeKind } from '../../../sync/outbox/kinds.js';
import { sha256Hex } from '../../../sync/outbox/merge.js';
import { applyResolution, parseConflictDetails, resolveConflict } from '../../../sync/outbox/mutations/message-conflict.js';
import { contentEditBaseOf, messageContentEdit, readRawContent } from '../../../sync/outbox/mutations/message-content-edit.js';
import type { ApiConnection } from '../../../sync/api/core.js';
import type { OutboxStore } from '../../../sync/outbox/store.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { post } from '../../server/edit-helpers.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { outboxEnv, type Env } from './outbox-env.js';

let t: TestServer;
let proxy: FaultProxy;
let conn: ApiConnection;
let store: OutboxStore;
let env: Env;
const kind = runtimeKind(messageContentEdit);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await outboxEnv({ kinds: [kind], email: 'hamlet@example.com', server: t });
  ({ proxy, conn, store } = env);
});
afterEach(() => env.close());

async function serverRaw(id: number): Promise<string> {
  const r = await t.as('hamlet').get(`/messages/${id}`, { apply_markdown: false });
  const m = r.json['message'] as { content: string };
  return m.content;
}
const patches = () => proxy.log.filter((l) => l.method === 'PATCH').length;
const drain = () => env.drain();

describe('update_message_content against the reference server', () => {
  it('an edit lands with the hash of the fetched raw content', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'hello');
    const raw = await readRawContent(conn, id);
    store.enqueue(kind, { message_id: id, content: 'hello world' }, contentEditBaseOf(raw));
    await drain();
    expect(store.all().map((r) => r.state)).toEqual(['done']);
    expect(await serverRaw(id)).toBe('hello world');
  });

  it('a lost answer is verified by reading: done, applied exactly once', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'before');
    store.enqueue(kind, { message_id: id, content: 'after' }, contentEditBaseOf(await readRawContent(conn, id)));
    proxy.rule({ method: 'PATCH' }, { kind: 'drop' }, 1);
    await drain();
    expect(store.all()[0]).toMatchObject({ state: 'done', attempts: 1 });
    expect(patches()).toBe(1);
    expect(proxy.counts.drop).toBe(1);
    expect(await serverRaw(id)).toBe('after');
  });

  it('a retried edit keeps the original base: every attempt sends the hash of the text the user started from', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'started from this');
    store.enqueue(kind, { message_id: id, content: 'changed to this' }, contentEditBaseOf(await readRawContent(conn, id)));
    proxy.rule({ method: 'PATCH' }, { kind: 'error500' }, 2);
    for (let i = 0; i < 3; i++) {
      await drain();
      env.time.advance(120_000); // past any backoff
    }
    const sent = proxy.log.filter((l) => l.method === 'PATCH').map((l) => new URLSearchParams(l.body ?? '').get('prev_content_sha256'));
    expect(sent).toEqual([sha256Hex('started from this'), sha256Hex('started from this'), sha256Hex('started from this')]);
    expect(store.all()[0]).toMatchObject({ state: 'done', attempts: 3 });
    expect(await serverRaw(id)).toBe('changed to this');
  });

  it('a non-overlapping edit made elsewhere meanwhile is merged and lands', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'line one\nline two\nline three');
    const base = contentEditBaseOf(await readRawContent(conn, id));
    store.enqueue(kind, { message_id: id, content: 'line ONE\nline two\nline three' }, base);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'line one\nline two\nline THREE' });
    await drain();
    expect(store.all()[0]?.state).toBe('done');
    expect(await serverRaw(id)).toBe('line ONE\nline two\nline THREE');
    // The merge is on record in the row's history: what it was merged with and what was sent.
    const succeeded = store.all()[0]?.history.find((h) => typeof h === 'object' && h !== null && 'event' in h && h.event === 'succeeded');
    expect(succeeded).toMatchObject({ note: { rebased: { theirs_sha256: sha256Hex('line one\nline two\nline THREE'), sent_sha256: sha256Hex('line ONE\nline two\nline THREE') } } });
  });

  it('overlapping edits become a conflict with all three texts; keep mine then lands', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'meet at 10:00');
    const base = contentEditBaseOf(await readRawContent(conn, id));
    const { id: rowId } = store.enqueue(kind, { message_id: id, content: 'meet at 11:00' }, base);
    await t.as('hamlet').patch(`/messages/${id}`, { content: 'meet at 10:30' });
    await drain();
    const row = store.get(rowId);
    expect(row?.state).toBe('conflict');
    const details = parseConflictDetails(row?.lastError);
    expect(details).toEqual({ message_id: id, base: 'meet at 10:00', ours: 'meet at 11:00', theirs: 'meet at 10:30', theirs_sha256: sha256Hex('meet at 10:30') });
    expect(await serverRaw(id)).toBe('meet at 10:30');
    if (!details) throw new Error('no details');
    applyResolution(store, rowId, resolveConflict({ choice: 'keep_mine' }, details));
    await drain();
    expect(store.get(rowId)?.state).toBe('done');
    expect(await serverRaw(id)).toBe('meet at 11:00');
  });

  it('the hash covers the raw text exactly: non-ASCII, CRLF, emoji, inner whitespace', async () => {
    // The server strips trailing whitespace on send, so the base must be the text as fetched.
    const id = post(t, 'hamlet', 'Verona', 'edits', 'héllo  \r\nwörld 🎉👩‍💻\r\n\r\n  indented');
    const raw = await readRawContent(conn, id);
    store.enqueue(kind, { message_id: id, content: `${raw}\r\nmore ✓` }, contentEditBaseOf(raw));
    await drain();
    expect(store.all()[0]?.state).toBe('done');
    // One PATCH and no re-read: no false mismatch.
    expect(proxy.log.map((l) => l.method)).toEqual(['GET', 'PATCH']);
    expect(await serverRaw(id)).toBe(`${raw}\r\nmore ✓`);
  });

  it('ten offline edits of one message send one request, against the first base', async () => {
    const id = post(t, 'hamlet', 'Verona', 'edits', 'v0');
    const base = contentEditBaseOf(await readRawContent(conn, id));
    for (let i = 1; i <= 10; i++) store.enqueue(kind, { message_id: id, content: `v${i}` }, i === 1 ? base : contentEditBaseOf(`v${i - 1}`));
    expect(store.all()).toHaveLength(1);
    expect(store.all()[0]?.base).toEqual(base);
    await drain();
    expect(patches()).toBe(1);
    expect(await serverRaw(id)).toBe('v10');
  });
});

describe('resolveConflict', () => {
  const d = { message_id: 7, base: 'a', ours: 'b', theirs: 'c', theirs_sha256: sha256Hex('c') };
  const against = { raw_content: 'c', sha256: sha256Hex('c') };

  it('keep mine resends ours against theirs', () => {
    expect(resolveConflict({ choice: 'keep_mine' }, d)).toEqual({ action: 'resend', args: { message_id: 7, content: 'b' }, base: against });
  });
  it('take theirs discards, handing ours back as a draft', () => {
    expect(resolveConflict({ choice: 'take_theirs' }, d)).toEqual({ action: 'discard', draft: 'b' });
  });
  it('an edited merge is sent against theirs', () => {
    expect(resolveConflict({ choice: 'edited', text: 'b+c' }, d)).toEqual({ action: 'resend', args: { message_id: 7, content: 'b+c' }, base: against });
  });
});

describe('an edit naming files, coalesced', () => {
  it("keeps both edits' files (each once, earlier first) and the first base", () => {
    const first = { kind: 'update_message_content', args: { message_id: 9, content: 'a', uploads: [{ upload: 'tmp-1', name: 'x.png' }] }, base: contentEditBaseOf('seen') };
    const next = { args: { message_id: 9, content: 'ab', uploads: [{ upload: 'tmp-1', name: 'x.png' }, { upload: 'tmp-2', name: 'y.pdf' }] }, base: contentEditBaseOf('a') };
    expect(messageContentEdit.coalesce?.(first, next)).toEqual({
      action: 'merge',
      args: { message_id: 9, content: 'ab', uploads: [{ upload: 'tmp-1', name: 'x.png' }, { upload: 'tmp-2', name: 'y.pdf' }] },
      base: contentEditBaseOf('seen'),
    });
    // A later edit without files keeps the earlier one's.
    expect(messageContentEdit.coalesce?.(first, { args: { message_id: 9, content: 'abc' }, base: contentEditBaseOf('ab') })).toMatchObject({ args: { content: 'abc', uploads: [{ upload: 'tmp-1' }] } });
  });
});
