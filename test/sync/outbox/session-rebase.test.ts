/**
 * The session's outbox against the reference server: local reads are the server's state with the
 * pending rows on top, re-applied when events change the same message; the row's state shows on
 * the message in live views; once the row is done the server's own rendering takes over.
 */
import { messageMove } from '../../../sync/outbox/mutations/message-move.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { contentEditBaseOf, messageContentEdit } from '../../../sync/outbox/mutations/message-content-edit.js';
import { post } from '../../server/edit-helpers.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { sessionEnv, watch, type SessionEnv } from './session-support.js';

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

const OPTIMISTIC = '<p>**mine** now</p>';
const RENDERED = '<p><strong>mine</strong> now</p>';

async function cachedPost(topic: string, text: string): Promise<number> {
  const id = post(t, 'hamlet', 'Verona', topic, text);
  await until(() => getStoredMessage(env.s.db, id) !== undefined, 10_000, 'the message cached');
  return id;
}

describe('pending rows over server changes', () => {
  it("another user's reaction, a star and a refetched page keep the pending text; done + echo shows the server's", async () => {
    const { s, proxy } = env;
    const id = await cachedPost('rebase', 'original text');
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'rebase' },
    ]);
    // Every edit request fails transiently: the row stays pending.
    proxy.rule({ method: 'PATCH' }, { kind: 'error500' });
    const r = s.outbox.enqueue(messageContentEdit, { message_id: id, content: '**mine** now' }, contentEditBaseOf('original text'));
    // At once, before any request: the cache and the view show ours, marked pending.
    expect(getStoredMessage(s.db, id)?.content).toBe(OPTIMISTIC);
    await until(() => v.view().messages.some((m) => m.id === id && m.content === OPTIMISTIC && m.local.status === 'pending'), 5_000, 'view shows ours');
    expect(v.view().messages.find((m) => m.id === id)?.local.outbox_id).toBe(r.id);
    await until(() => s.outbox.store.get(r.id)?.state === 'retry_wait', 5_000, 'a failed attempt');

    expect((await t.as('othello').post(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status).toBe(200);
    expect((await t.as('hamlet').post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' })).status).toBe(200);
    await until(() => {
      const m = getStoredMessage(s.db, id);
      return m !== undefined && m.reactions.length === 1 && m.flags.includes('starred');
    }, 10_000, 'reaction and star applied');
    expect(getStoredMessage(s.db, id)?.content).toBe(OPTIMISTIC);
    const shown = v.view().messages.find((m) => m.id === id);
    expect(shown).toMatchObject({ content: OPTIMISTIC, flags: expect.arrayContaining(['starred']), local: { status: 'pending' } });
    expect(shown?.reactions).toHaveLength(1);

    // A page fetched from the server (nothing proven cached any more) stores the server's text...
    s.db.prepare('DELETE FROM narrow_ranges').run();
    const gets = () => proxy.log.filter((l) => l.method === 'GET' && l.path.startsWith('/api/v1/messages?')).length;
    const before = gets();
    const v2 = watch(s, [{ operator: 'channel', operand: 'Verona' }]);
    await until(() => gets() > before && v2.view().before.complete, 10_000, 'the page refetched');
    // ...and the pending row goes back on top before anyone sees it.
    expect(getStoredMessage(s.db, id)?.content).toBe(OPTIMISTIC);
    expect(v2.view().messages.find((m) => m.id === id)).toMatchObject({ content: OPTIMISTIC, local: { status: 'pending' } });
    v2.close();

    proxy.clearRules();
    s.outbox.retryNow();
    await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'row done');
    await until(() => getStoredMessage(s.db, id)?.content === RENDERED, 10_000, "the server's rendering");
    await until(() => v.view().messages.some((m) => m.id === id && m.content === RENDERED && m.local.status === 'server'), 5_000, 'view shows the server');
    expect(v.view().messages.find((m) => m.id === id)?.reactions).toHaveLength(1);
    v.close();
  });

  it('an edit from another device while ours is pending: ours stays shown, then a conflict marker, then keep mine lands', async () => {
    const { s, proxy } = env;
    const id = await cachedPost('rebase conflict', 'original text');
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'rebase conflict' },
    ]);
    proxy.rule({ method: 'PATCH' }, { kind: 'error500' });
    const r = s.outbox.enqueue(messageContentEdit, { message_id: id, content: '**mine** now' }, contentEditBaseOf('original text'));
    await until(() => s.outbox.store.get(r.id)?.state === 'retry_wait', 5_000, 'a failed attempt');
    // The same user on another device (only the sender edits content).
    expect((await t.as('hamlet').patch(`/messages/${id}`, { content: 'theirs entirely' })).status).toBe(200);
    await until(() => (getStoredMessage(s.db, id)?.edit_history?.length ?? 0) > 0, 10_000, 'the other edit applied');
    expect(getStoredMessage(s.db, id)?.content).toBe(OPTIMISTIC);

    proxy.clearRules();
    s.outbox.retryNow();
    await until(() => s.outbox.store.get(r.id)?.state === 'conflict', 10_000, 'conflict');
    await until(() => v.view().messages.some((m) => m.id === id && m.local.status === 'conflict'), 5_000, 'view shows the conflict');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 1 });

    expect(s.outbox.resolveConflict(r.id, { choice: 'keep_mine' }).draft).toBeNull();
    await until(() => s.outbox.store.get(r.id)?.state === 'done', 10_000, 'kept mine');
    await until(() => v.view().messages.some((m) => m.id === id && m.content === RENDERED && m.local.status === 'server'), 10_000, 'server shows mine');
    const raw = await t.as('hamlet').get(`/messages/${id}`, { apply_markdown: false });
    expect(raw.json.raw_content).toBe('**mine** now');
    v.close();
  });

  it('a discarded topic move puts the whole topic back where the server has it', async () => {
    const { s, proxy } = env;
    const ids = [await cachedPost('move me', 'one'), await cachedPost('move me', 'two'), await cachedPost('move me', 'three')];
    proxy.rule({ method: 'PATCH' }, { kind: 'error500' });
    const r = s.outbox.enqueue(messageMove, { message_id: ids[0] ?? 0, topic: 'moved away', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }, null);
    expect(ids.map((id) => getStoredMessage(s.db, id)?.subject)).toEqual(['moved away', 'moved away', 'moved away']);
    await until(() => s.outbox.store.get(r.id)?.state === 'retry_wait', 5_000, 'waiting');
    s.outbox.discard(r.id);
    await until(() => ids.every((id) => getStoredMessage(s.db, id)?.subject === 'move me'), 10_000, 'moved back by reading the server');
    expect(proxy.log.filter((l) => l.method === 'PATCH').length).toBeGreaterThan(0);
  });

  it("a refused edit is marked failed on the message; discarding it shows the server's text again", async () => {
    const { s } = env;
    // Othello's message: only its sender may edit the content, so the server refuses ours.
    const id = post(t, 'othello', 'Verona', 'refused', 'not yours');
    await until(() => getStoredMessage(s.db, id) !== undefined, 10_000, 'cached');
    const before = getStoredMessage(s.db, id)?.content;
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'refused' },
    ]);
    const r = s.outbox.enqueue(messageContentEdit, { message_id: id, content: 'hijack' }, contentEditBaseOf('not yours'));
    await until(() => s.outbox.store.get(r.id)?.state === 'failed', 10_000, 'failed');
    await until(() => v.view().messages.some((m) => m.id === id && m.local.status === 'failed' && m.content === '<p>hijack</p>'), 5_000, 'failed marker');
    // Structured, in the server's own words: nothing for the UI to take apart.
    const error = v.view().messages.find((m) => m.id === id)?.local.error;
    expect(error).toMatchObject({ kind: 'api', code: expect.any(String) });
    expect(error?.message).not.toMatch(/HTTP \d{3}|PATCH \//);
    expect(error?.message.length).toBeGreaterThan(5);
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 1, conflict: 0 });

    s.outbox.discard(r.id);
    await until(() => getStoredMessage(s.db, id)?.content === before, 10_000, 'server text read back');
    await until(() => v.view().messages.some((m) => m.id === id && m.content === before && m.local.status === 'server'), 5_000, 'view back to the server');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    v.close();
  });
});
