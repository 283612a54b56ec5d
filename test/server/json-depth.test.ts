/**
 * JSON parameters are bounded in nesting (server/http/json.ts): a value nested thousands deep is a
 * 400 envelope naming the parameter, never a stack overflow answered with 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../server/http/json.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId } from './messages-util.js';

let t: TestServer;
const internalErrors: string[] = [];
beforeAll(async () => {
  t = await startTestServer({ log: { info: () => undefined, error: (m) => internalErrors.push(m.slice(0, 200)) } });
});
afterAll(() => t.close());

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"operator":"channel","operand":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('jsonDepth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('[{"a":[1]}]')).toBe(3);
    expect(jsonDepth(`["${'['.repeat(100)}", "\\"[[["]`)).toBe(1);
    expect(jsonDepth(arrays(5000))).toBe(MAX_JSON_DEPTH + 1); // stops counting past the limit
  });
});

describe('deeply nested JSON parameters', () => {
  const expectTooDeep = (r: { status: number; json: Record<string, unknown> }, name: string) => {
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_INVALID', var_name: name, msg: `Argument "${name}" is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)` });
    expect(String(r.json.bad_value).length).toBeLessThanOrEqual(201);
  };

  it('GET /messages with a narrow 5,000 deep (arrays or objects) is 400, not 500', async () => {
    for (const narrow of [arrays(5000), `[${objects(5000)}]`, arrays(100_000)]) {
      expectTooDeep(await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), 'narrow');
    }
  });

  it('the same for POST /messages/flags/narrow, register, subscribe, message_retention_days and a message `to`', async () => {
    const deep = arrays(5000);
    expectTooDeep(await t.as('hamlet').post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read', narrow: deep }), 'narrow');
    expectTooDeep(await t.as('hamlet').post('/register', { narrow: deep }), 'narrow');
    expectTooDeep(await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: deep }), 'subscriptions');
    expectTooDeep(await t.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'deep retention' }], message_retention_days: deep }), 'message_retention_days');
    expectTooDeep(await t.as('hamlet').post('/messages', { type: 'stream', to: deep, topic: 'x', content: 'x' }), 'to');
    expectTooDeep(await t.as('hamlet').post('/messages', { type: 'direct', to: deep, content: 'x' }), 'to');
    expect(internalErrors).toEqual([]);
  });

  it('ordinary nesting still works, and brackets inside strings do not count', async () => {
    const topic = 'depth [[[ ok ]]]';
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: channelId(t, 'Verona'), topic, content: 'ok' });
    expect(sent.json.result).toBe('success');
    const narrowTo = (operand: string) => [
      { operator: 'channel', operand: channelId(t, 'Verona') },
      { operator: 'topic', operand },
    ];
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: narrowTo(topic) });
    expect((r.json.messages as Array<{ id: number }>).map((m) => m.id)).toEqual([sent.json.id]);
    const unbalanced = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: narrowTo('{'.repeat(40) + '['.repeat(40)) });
    expect(unbalanced.status).toBe(200);
    expect(unbalanced.json.messages).toEqual([]);
  });
});
