/**
 * Issue: exactly once when the server normalises the input and the answer is lost. Each intent's
 * answer is dropped after the server applied it; verify-by-reading must compare what the server
 * stores (trimmed, truncated, `(deleted)`), or the resend is a duplicate, a false conflict, or
 * "Nothing to change".
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contentEditBaseOf, readRawContent } from '../../../sync/outbox/mutations/message-content-edit.js';
import { storedContent, storedEditContent, storedTopic } from '../../../sync/outbox/normalize.js';
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { post } from '../../server/edit-helpers.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { kindOf, outboxEnv, type Env } from './outbox-env.js';

let t: TestServer;
let env: Env;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await outboxEnv({ kinds: ALL_KINDS, email: 'hamlet@example.com', server: t });
});
afterEach(() => env.close());

const kind = (name: string) => kindOf(env.store, name);
const seconds = () => Math.floor(env.time.now() / 1000);
let n = 0;
const dropNext = (method: string, path: RegExp) => env.proxy.rule({ method, path }, { kind: 'drop' }, 1);

async function topicMessages(topic: string): Promise<Array<{ id: number; content: string; subject: string }>> {
  const r = await t.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channelId(t, 'Verona') },
      { operator: 'topic', operand: topic },
    ],
    apply_markdown: false,
  });
  return r.json.messages as Array<{ id: number; content: string; subject: string }>;
}

function send(topic: string, content: string): number {
  return env.store.enqueue(kind('send_message'), { local_id: String(5000 + n++), to: { type: 'channel', stream_id: channelId(t, 'Verona'), topic }, content }, { enqueued_at: seconds() }).id;
}

describe('normalisation the client must mirror', () => {
  it('content, edits and topics as Zulip stores them', () => {
    expect(storedContent('hi  \r\n\n')).toBe('hi');
    expect(storedContent('x'.repeat(10_065))).toBe(`${'x'.repeat(10_000 - 20)}\n[message truncated]`);
    expect(storedEditContent(' \n')).toBe('(deleted)');
    expect(storedTopic('  padded topic ')).toBe('padded topic');
    expect(storedTopic('(no topic)')).toBe('');
    expect([...storedTopic('é'.repeat(71))]).toHaveLength(60);
    expect(storedTopic('é'.repeat(71)).endsWith('...')).toBe(true);
  });
});

describe('lost answers with normalised inputs: exactly once', () => {
  it('a send to a 71-character topic', async () => {
    const topic = `long ${'t'.repeat(66)}`;
    dropNext('POST', /^\/api\/v1\/messages$/);
    send(topic, 'into a long topic');
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    const got = await topicMessages(storedTopic(topic));
    expect(got.map((m) => m.content)).toEqual(['into a long topic']);
  });

  it('a send to "  padded topic " with content ending in whitespace', async () => {
    dropNext('POST', /^\/api\/v1\/messages$/);
    send('  padded topic ', 'padded  \n\n');
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect((await topicMessages('padded topic')).map((m) => m.content)).toEqual(['padded']);
  });

  it('a send of 10,065 characters (truncated by the server)', async () => {
    dropNext('POST', /^\/api\/v1\/messages$/);
    send('very long content', 'y'.repeat(10_065));
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    const got = await topicMessages('very long content');
    expect(got).toHaveLength(1);
    expect(got[0]!.content.endsWith('[message truncated]')).toBe(true);
  });

  it('a snippet whose title has a leading space and whose content ends in a newline; then its edit', async () => {
    const before = ((await t.as('hamlet').get('/saved_snippets')).json.saved_snippets as unknown[]).length;
    dropNext('POST', /^\/api\/v1\/saved_snippets$/);
    const tmp = env.store.newTempId();
    env.store.enqueue(kind('create_saved_snippet'), { tmp_id: tmp, title: ' spaced title', content: 'ends in a newline\n' }, { enqueued_at: seconds() });
    await env.drain();
    const list = (await t.as('hamlet').get('/saved_snippets')).json.saved_snippets as Array<{ id: number; title: string; content: string }>;
    expect(list).toHaveLength(before + 1);
    expect(list.filter((s) => s.title === 'spaced title')).toHaveLength(1);
    dropNext('PATCH', /^\/api\/v1\/saved_snippets\//);
    env.store.enqueue(kind('edit_saved_snippet'), { saved_snippet_id: tmp, content: '  edited\n' }, null);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect((await t.as('hamlet').get('/saved_snippets')).json.saved_snippets).toContainEqual(expect.objectContaining({ title: 'spaced title', content: 'edited' }));
  });

  it('an edit to "X\\n" and an edit to blank text (stored "(deleted)") are not false conflicts', async () => {
    const id = post(t, 'hamlet', 'Verona', 'normalised edits', 'original');
    dropNext('PATCH', new RegExp(`^/api/v1/messages/${id}$`));
    env.store.enqueue(kind('update_message_content'), { message_id: id, content: 'X\n' }, contentEditBaseOf(await readRawContent(env.conn, id)));
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect(await readRawContent(env.conn, id)).toBe('X');
    dropNext('PATCH', new RegExp(`^/api/v1/messages/${id}$`));
    env.store.enqueue(kind('update_message_content'), { message_id: id, content: '' }, contentEditBaseOf('X'));
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect(await readRawContent(env.conn, id)).toBe('(deleted)');
  });

  it('a move to "  padded new topic  " that landed is done, not "Nothing to change"', async () => {
    const id = post(t, 'hamlet', 'Verona', 'before the move', 'move me');
    dropNext('PATCH', new RegExp(`^/api/v1/messages/${id}$`));
    const args = { message_id: id, topic: '  padded new topic  ', propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false };
    env.store.enqueue(kind('update_message_move'), args, null);
    await env.drain();
    expect(env.store.all().map((r) => [r.state, r.lastError])).toEqual([['done', null]]);
    expect((await topicMessages('padded new topic')).map((m) => m.id)).toEqual([id]);
  });
});
