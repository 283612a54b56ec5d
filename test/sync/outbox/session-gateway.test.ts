/**
 * Answers that do not say whether a write landed, AFTER the server committed it: a gateway's
 * 502 / 504 page, a 500 that is not the app's envelope, an HTML 200 (a portal or a proxy), a 200
 * whose JSON is cut short. Each must put the row in `unknown` and be verified by reading (never
 * resent blindly): exactly one message and one snippet, a move ends `done` (not `failed`: a blind
 * resend finds nothing to move), an edit is applied once. The app's own 503 envelope with
 * Retry-After did not land: it is retried, not verified. Real session, fault proxy, reference server.
 */
import { messageMove } from '../../../sync/outbox/mutations/message-move.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { contentEditBaseOf, messageContentEdit } from '../../../sync/outbox/mutations/message-content-edit.js';
import type { OutboxRow } from '../../../sync/outbox/store.js';
import type { Fault } from '../../support/fault-proxy.js';
import { post } from '../../server/edit-helpers.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { serverTopic, sessionEnv, type SessionEnv } from './session-support.js';

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

const page = (status: number, text: string): Fault => ({ kind: 'answer', apply: true, status, body: `<html><body><h1>${status} ${text}</h1></body></html>` });
const FAULTS: Array<[string, Fault]> = [
  ['gateway 502', page(502, 'Bad Gateway')],
  ['gateway 504', page(504, 'Gateway Timeout')],
  ['HTML 500', page(500, 'Internal Server Error')],
  ['HTML 200', page(200, 'Welcome')],
  ['truncated JSON 200', { kind: 'truncate' }],
];

const SEND = { method: 'POST', path: /^\/api\/v1\/messages$/ } as const;
const SNIPPET = { method: 'POST', path: /^\/api\/v1\/saved_snippets$/ } as const;
const PATCH_MESSAGE = { method: 'PATCH', path: /^\/api\/v1\/messages\/\d+$/ } as const;

const events = (r: OutboxRow | undefined) => (r?.history ?? []).map((h) => (h as { event: string }).event);

async function settled(id: number): Promise<OutboxRow> {
  await until(() => {
    const st = env.s.outbox.store.get(id)?.state;
    return st === 'done' || st === 'failed' || st === 'conflict';
  }, 15_000, `row ${id} settled`);
  return env.s.outbox.store.get(id)!;
}

async function editCount(id: number): Promise<number> {
  const r = await t.as('hamlet').get(`/messages/${id}/history`);
  return (r.json['message_history'] as unknown[]).length - 1;
}

describe('outcomes that may have landed are verified by reading', () => {
  for (const [name, fault] of FAULTS) {
    it(`${name} after the server committed: one message, one snippet, the move done, the edit applied once`, async () => {
      const { s, proxy } = env;
      const intents = outboxIntents(s.db, s.outbox);
      const topic = `gw ${name}`;

      proxy.rule(SEND, fault, 1);
      const sent = intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic }, content: `hello via ${name}` });
      const sendRow = await settled(sent.outbox_id);
      expect(sendRow.state).toBe('done');
      expect(events(sendRow)).toEqual(expect.arrayContaining(['lost', 'verify', 'verified_applied']));
      expect((await serverTopic(t, topic)).map((m) => m.content)).toEqual([`hello via ${name}`]);

      proxy.rule(SNIPPET, fault, 1);
      const title = `snippet ${name}`;
      const snip = intents.createSavedSnippet({ title, content: 'body' });
      const snipRow = await settled(snip.outbox_id);
      expect(snipRow.state).toBe('done');
      expect(events(snipRow), JSON.stringify(snipRow.history)).toContain('verified_applied');
      const listed = (await t.as('hamlet').get('/saved_snippets')).json['saved_snippets'] as Array<{ title: string }>;
      expect(listed.filter((x) => x.title === title)).toHaveLength(1);

      const moving = post(t, 'hamlet', 'Verona', `${topic} from`, 'to be moved');
      proxy.rule(PATCH_MESSAGE, fault, 1);
      const mv = s.outbox.enqueue(messageMove, { message_id: moving, topic: `${topic} to`, propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false }, null);
      const mvRow = await settled(mv.id);
      expect(mvRow.state).toBe('done');
      expect(events(mvRow)).toContain('verified_applied');
      expect(((await t.as('hamlet').get(`/messages/${moving}`)).json['message'] as { subject: string }).subject).toBe(`${topic} to`);

      const editing = post(t, 'hamlet', 'Verona', topic, 'before the edit');
      await until(() => getStoredMessage(s.db, editing) !== undefined, 10_000, 'cached');
      proxy.rule(PATCH_MESSAGE, fault, 1);
      const ed = s.outbox.enqueue(messageContentEdit, { message_id: editing, content: 'after the edit' }, contentEditBaseOf('before the edit'));
      const edRow = await settled(ed.id);
      expect(edRow.state).toBe('done');
      expect(events(edRow)).toContain('verified_applied');
      expect(await editCount(editing)).toBe(1);
      const raw = (await t.as('hamlet').get(`/messages/${editing}`, { apply_markdown: false })).json['message'] as { content: string };
      expect(raw.content).toBe('after the edit');
      // Every request of the four went through the proxy exactly once (no blind resend).
      expect(proxy.log.filter((l) => l.outcome !== 'pass' && l.method !== 'GET')).toHaveLength(4);
      expect(proxy.log.filter((l) => l.method === 'POST' && SEND.path.test(l.path))).toHaveLength(1);
      expect(proxy.log.filter((l) => l.method === 'PATCH')).toHaveLength(2);
    });
  }

  it('a 200 that never ends after the server committed: the body cap ends it (malformed), verified, created once', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    proxy.rule(SNIPPET, { kind: 'endless' }, 1);
    const snip = intents.createSavedSnippet({ title: 'endless answer', content: 'body' });
    const row = await settled(snip.outbox_id);
    expect(row.state).toBe('done');
    expect(events(row)).toEqual(expect.arrayContaining(['lost', 'verified_applied']));
    expect(row.history.find((h) => (h as { event: string }).event === 'lost')).toBeDefined();
    const listed = (await t.as('hamlet').get('/saved_snippets')).json['saved_snippets'] as Array<{ title: string }>;
    expect(listed.filter((x) => x.title === 'endless answer')).toHaveLength(1);
    // The client stopped reading at the write cap (1 MiB): the proxy wrote that plus socket buffers.
    expect(proxy.endlessBytes).toBeGreaterThan(1024 * 1024);
    expect(proxy.endlessBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("the app's own 503 envelope with Retry-After did not land: retried, not verified, one message", async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const body = JSON.stringify({ result: 'error', msg: 'The server is restarting', code: 'SERVER_NOT_READY' });
    proxy.rule(SEND, { kind: 'answer', apply: false, status: 503, body, headers: { 'content-type': 'application/json', 'retry-after': '0.05' } }, 1);
    const sent = intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'gw 503' }, content: 'after a restart' });
    const row = await settled(sent.outbox_id);
    expect(row.state).toBe('done');
    expect(events(row)).toContain('transient');
    expect(events(row)).not.toContain('lost');
    expect((await serverTopic(t, 'gw 503')).map((m) => m.content)).toEqual(['after a restart']);
  });
});
