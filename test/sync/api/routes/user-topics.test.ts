import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import { updateUserTopic } from '../../../../sync/api/routes/user-topics.js';
import { VisibilityPolicy } from '../../../../sync/api/schemas/user-topics.js';
import { fakeServer } from '../fake-transport.js';

describe('user topic routes', () => {
  it('updateUserTopic POSTs stream_id and visibility_policy as JSON ints and the topic raw', async () => {
    const f = fakeServer();
    const res = await updateUserTopic(f.conn, { stream_id: 12, topic: 'lunch & "dinner"', visibility_policy: VisibilityPolicy.followed });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/user_topics');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ stream_id: '12', topic: 'lunch & "dinner"', visibility_policy: '3' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('visibility_policy 0 removes the policy and is sent as 0, not left out', async () => {
    const f = fakeServer();
    await updateUserTopic(f.conn, { stream_id: 1, topic: 't', visibility_policy: 0 });
    expect(f.only().body).toMatchObject({ visibility_policy: '0' });
  });

  it('only 0..3 are policies, at the type level', () => {
    const typeOnly = (fn: () => unknown) => fn;
    // @ts-expect-error 4 is not a visibility policy
    typeOnly(() => updateUserTopic(fakeServer().conn, { stream_id: 1, topic: 't', visibility_policy: 4 }));
  });

  it('the empty-topic display name is sent as the empty topic (FL 334+)', async () => {
    const f = fakeServer({ featureLevel: 334 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await updateUserTopic(f.conn, { stream_id: 1, topic: 'general chat', visibility_policy: 1 });
    expect(f.only().body).toEqual({ stream_id: '1', topic: '', visibility_policy: '1' });
  });

  it('before FL 334 the display name is sent as typed', async () => {
    const f = fakeServer({ featureLevel: 333 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await updateUserTopic(f.conn, { stream_id: 1, topic: 'general chat', visibility_policy: 1 });
    expect(f.only().body.topic).toBe('general chat');
  });

  it('an unknown channel is an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' } });
    const err = await updateUserTopic(f.conn, { stream_id: 99, topic: 't', visibility_policy: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });
});
