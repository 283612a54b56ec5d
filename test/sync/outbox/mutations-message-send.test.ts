/**
 * `send_message` end to end against the reference server through the fault proxy: each intent
 * posts exactly one message (a lost answer is verified by reading, never resent blindly), two
 * identical texts are two messages, and messages to one conversation arrive in the typed order.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeKind } from '../../../sync/outbox/kinds.js';
import { DEFAULT_LIMITS } from '../../../sync/outbox/normalize.js';
import { conversationKey, messageSend, VERIFY_CLOCK_SLACK_S } from '../../../sync/outbox/mutations/message-send.js';
import { claimedIds } from '../../../sync/engine/outbox-local.js';
import type { LocalDb } from '../../../sync/db/open.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { outboxEnv, type Env } from './outbox-env.js';
import { serverTopic } from './session-support.js';

let t: TestServer;
let env: Env;
let db: LocalDb | undefined;
const kind = runtimeKind(messageSend);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  // The kind asks the session for landed ids; here the env's own database plays the session.
  env = await outboxEnv({ kinds: [kind], email: 'hamlet@example.com', server: t, context: { queueId: () => undefined, claimed: (key, localId) => (db ? claimedIds(db, key, localId) : new Set()), limits: () => DEFAULT_LIMITS } });
  db = env.db;
});
afterEach(() => env.close());

let nextLocal = 1;
/** local_id is the row id in the session; any unique decimal works for the kind alone. */
function enqueue(topic: string, content: string): number {
  const seconds = Math.floor(env.time.now() / 1000);
  return env.store.enqueue(kind, { local_id: String(1000 + nextLocal++), to: { type: 'channel', stream_id: channelId(t, 'Verona'), topic }, content }, { enqueued_at: seconds }).id;
}

const posts = () => env.requests(/^POST \/api\/v1\/messages$/);

describe('send_message against the reference server', () => {
  it('a dropped answer after the server applied it: verified by reading, exactly one message', async () => {
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'drop' }, 1);
    const id = enqueue('send drop', 'hello once');
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(posts()).toBe(1);
    const row = env.store.get(id);
    expect(row?.state).toBe('done');
    const msgs = await serverTopic(t, 'send drop');
    expect(msgs.map((m) => m.content)).toEqual(['hello once']);
    // The verified row remembers which message it became.
    expect(JSON.stringify(row?.history)).toContain(`"created_id":${msgs[0]!.id}`);
  });

  it('a reset before the server saw it is resent: still exactly one', async () => {
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'reset' }, 1);
    enqueue('send reset', 'hello after reset');
    await env.drain();
    expect((await serverTopic(t, 'send reset')).map((m) => m.content)).toEqual(['hello after reset']);
  });

  it('two identical texts are two messages, even when the second answer is lost', async () => {
    enqueue('send twice', 'ok');
    enqueue('send twice', 'ok');
    // The first goes through; the second is applied and its answer dropped.
    let n = 0;
    env.proxy.rule((req) => req.method === 'POST' && req.path === '/api/v1/messages' && ++n === 2, { kind: 'drop' }, 1);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(posts()).toBe(2);
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect((await serverTopic(t, 'send twice')).map((m) => m.content)).toEqual(['ok', 'ok']);
  });

  it("a lost second 'ok' that never landed is sent again: the first 'ok' is not taken for it", async () => {
    enqueue('send twice lost', 'ok');
    enqueue('send twice lost', 'ok');
    let n = 0;
    env.proxy.rule((req) => req.method === 'POST' && req.path === '/api/v1/messages' && ++n === 2, { kind: 'stall', apply: false }, 1);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    const landed = await serverTopic(t, 'send twice lost');
    expect(landed.map((m) => m.content)).toEqual(['ok', 'ok']);
    // Each row names its own message.
    const ids = env.store.all().map((r) => JSON.stringify(r.history).match(/"created_id":(\d+)/)?.[1]);
    expect(new Set(ids).size).toBe(2);
  });

  it('a lost answer to a request that never landed is sent again, not adopted', async () => {
    // The server sees nothing (the proxy resets after reading), but the client cannot know: unknown.
    env.proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'stall', apply: false }, 1);
    enqueue('send stall', 'typed once');
    await env.drain();
    expect((await serverTopic(t, 'send stall')).map((m) => m.content)).toEqual(['typed once']);
    expect(env.store.all()[0]?.state).toBe('done');
  });

  it('messages to one conversation arrive in the typed order, through 500s and 429s', async () => {
    env.proxy.setPlan(7, { error500: 0.3, rate_limit: 0.1, drop: 0.15 }, { retryAfterSeconds: 0.01, burst: 2 });
    const typed = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    for (const line of typed) enqueue('send order', line);
    for (let round = 0; round < 50 && env.store.all().some((r) => r.state !== 'done'); round++) {
      await env.drain();
      env.time.advance(60_000);
    }
    env.proxy.clearPlan();
    expect(env.store.all().every((r) => r.state === 'done')).toBe(true);
    const landed = (await serverTopic(t, 'send order')).sort((a, b) => a.id - b.id).map((m) => m.content);
    expect(landed).toEqual(typed);
  });

  it('the entity is the conversation: topics match case-insensitively, DMs by the set of users', () => {
    expect(conversationKey({ type: 'channel', stream_id: 5, topic: 'Lunch' })).toBe(conversationKey({ type: 'channel', stream_id: 5, topic: 'lunch' }));
    expect(conversationKey({ type: 'direct', user_ids: [9, 3, 9] })).toBe(conversationKey({ type: 'direct', user_ids: [3, 9] }));
    expect(VERIFY_CLOCK_SLACK_S).toBeGreaterThan(0);
  });
});
