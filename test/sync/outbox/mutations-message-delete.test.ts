/**
 * `delete_message` against the reference server through the fault proxy: deleted once when the
 * answer is lost (verified by reading, never resent blindly), a message already gone is the wish
 * reached, two deletes of one message send one request, and a refusal keeps the server's words.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../../../sync/outbox/registry.js';
import { kindOf, outboxEnv, personalEnv, type Env } from './outbox-env.js';

let env: Env;
afterEach(async () => {
  await env.close();
});

async function post(as: string, content: string): Promise<number> {
  const r = await env.t.as(as).post('/messages', { type: 'stream', to: 'Verona', topic: 'deletions', content });
  return r.json.id as number;
}
const exists = async (id: number) => (await env.t.as('iago').get(`/messages/${id}`)).json.result === 'success';
const DELETES = /^DELETE \/api\/v1\/messages\/\d+$/;

describe('delete_message as an administrator', () => {
  beforeEach(async () => {
    env = await personalEnv();
  });

  it('deletes once when the answer is lost: the retry reads first and finds it gone', async () => {
    const id = await post('hamlet', 'to be deleted');
    env.proxy.rule({ method: 'DELETE', path: `/api/v1/messages/${id}` }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: id }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(DELETES)).toBe(1);
    expect(env.requests(new RegExp(`^GET /api/v1/messages/${id}(\\?|$)`))).toBeGreaterThanOrEqual(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done']);
    expect(await exists(id)).toBe(false);
  });

  it('a message already deleted elsewhere is done, not failed; two deletes of one message send one request', async () => {
    const gone = await post('iago', 'deleted on the phone');
    expect((await env.t.as('iago').delete(`/messages/${gone}`)).json.result).toBe('success');
    const twice = await post('iago', 'deleted twice');
    env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: gone }, null);
    env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: twice }, null);
    env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: twice }, null);
    expect(env.store.all()).toHaveLength(2);
    await env.drain();
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
    expect(env.requests(DELETES)).toBe(2);
    expect(await exists(twice)).toBe(false);
  });

  it('refuses local echoes (nothing written)', () => {
    expect(() => env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: 2 ** 52 + 1 }, null)).toThrow(/bad delete_message intent/);
    expect(env.store.all()).toEqual([]);
  });
});

describe('delete_message as a member', () => {
  beforeEach(async () => {
    env = await outboxEnv({ kinds: ALL_KINDS, email: 'hamlet@example.com' });
  });

  it("someone else's message is refused in the server's words, and stays", async () => {
    const theirs = await post('othello', 'not yours to delete');
    env.store.enqueue(kindOf(env.store, 'delete_message'), { message_id: theirs }, null);
    await env.drain();
    const [row] = env.store.all();
    expect(row?.state).toBe('failed');
    expect(row?.lastError).toMatchObject({ kind: 'api', message: "You don't have permission to delete this message" });
    expect(await exists(theirs)).toBe(true);
  });
});
