import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import {
  createScheduledMessage,
  deleteScheduledMessage,
  getScheduledMessages,
  updateScheduledMessage,
  type UpdateScheduledMessageArgs,
} from '../../../../sync/api/routes/scheduled-messages.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('getScheduledMessages (GET /scheduled_messages)', () => {
  it('sends no parameters and parses both kinds, degrading an unknown type', async () => {
    const channelMessage = {
      scheduled_message_id: 27,
      to: 14,
      type: 'stream',
      content: 'Hi',
      rendered_content: '<p>Hi</p>',
      topic: 'Introduction',
      scheduled_delivery_timestamp: 1681662420,
      failed: false,
    };
    const directMessage = { scheduled_message_id: 28, to: [9, 10], type: 'private', content: 'Yo', rendered_content: '<p>Yo</p>', scheduled_delivery_timestamp: 1681662480, failed: true };
    // Before FL 181 there was no `failed`; an unknown type degrades to `unknown`.
    const oddMessage = { scheduled_message_id: 29, to: [9], type: 'carrier_pigeon', content: 'x', rendered_content: '<p>x</p>', scheduled_delivery_timestamp: 1681662490 };
    const f = fakeServer();
    f.reply(ok({ scheduled_messages: [channelMessage, directMessage, oddMessage] }));
    const res = await getScheduledMessages(f.conn);
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/scheduled_messages');
    expect(req.query).toEqual({});
    expect(req.rawBody).toBeUndefined();
    expect(res.scheduled_messages).toEqual([channelMessage, directMessage, { ...oddMessage, type: 'unknown', failed: false }]);
  });
});

describe('createScheduledMessage (POST /scheduled_messages)', () => {
  it('sends a channel message: JSON int to and timestamp, raw topic and content, JSON bool', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ scheduled_message_id: 42 }));
    const res = await createScheduledMessage(f.conn, {
      type: 'channel',
      to: 14,
      topic: 'Castle',
      content: 'Hi & bye',
      scheduled_delivery_timestamp: 3165826990,
      read_by_sender: false,
    });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/scheduled_messages');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      type: 'channel',
      to: '14',
      topic: 'Castle',
      content: 'Hi & bye',
      scheduled_delivery_timestamp: '3165826990',
      read_by_sender: 'false',
    });
    expect(res.scheduled_message_id).toBe(42);
  });

  it('sends type stream at FL 247', async () => {
    const f = fakeServer({ featureLevel: 247 });
    f.reply(ok({ scheduled_message_id: 1 }));
    await createScheduledMessage(f.conn, { type: 'channel', to: 1, topic: 't', content: 'c', scheduled_delivery_timestamp: 5 });
    expect(f.only().body).toEqual({ type: 'stream', to: '1', topic: 't', content: 'c', scheduled_delivery_timestamp: '5' });
  });

  it('sends a direct message with a JSON list and no topic', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ scheduled_message_id: 2 }));
    await createScheduledMessage(f.conn, { type: 'direct', to: [9, 10], content: 'c', scheduled_delivery_timestamp: 5 });
    expect(f.only().body).toEqual({ type: 'direct', to: '[9,10]', content: 'c', scheduled_delivery_timestamp: '5' });
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    f.reply(ok({ scheduled_message_id: 3 }));
    await createScheduledMessage(f.conn, {
      type: 'channel',
      to: 1,
      topic: 'general chat',
      content: 'c',
      scheduled_delivery_timestamp: 5,
    });
    expect(f.only().body.topic).toBe('');
  });

  it('surfaces STREAM_DOES_NOT_EXIST as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '9' does not exist", stream_id: 9 } });
    const err = await createScheduledMessage(f.conn, {
      type: 'channel',
      to: 9,
      topic: 't',
      content: 'c',
      scheduled_delivery_timestamp: 5,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
  });
});

describe('updateScheduledMessage (PATCH /scheduled_messages/{scheduled_message_id})', () => {
  it('sends every field with its encoding in the body', async () => {
    const f = fakeServer({ featureLevel: 420 });
    const res = await updateScheduledMessage(f.conn, {
      scheduledMessageId: 2,
      type: 'channel',
      to: 11,
      topic: 'Castle',
      content: 'Hello',
      scheduled_delivery_timestamp: 3165826990,
    });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/scheduled_messages/2');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      type: 'channel',
      to: '11',
      topic: 'Castle',
      content: 'Hello',
      scheduled_delivery_timestamp: '3165826990',
    });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('maps channel to stream at FL 247 and keeps channel at FL 248', async () => {
    const old = fakeServer({ featureLevel: 247 });
    await updateScheduledMessage(old.conn, { scheduledMessageId: 2, type: 'channel', to: 11, topic: 't' });
    expect(old.only().body).toEqual({ type: 'stream', to: '11', topic: 't' });
    const cur = fakeServer({ featureLevel: 248 });
    await updateScheduledMessage(cur.conn, { scheduledMessageId: 2, type: 'channel', to: 11, topic: 't' });
    expect(cur.only().body.type).toBe('channel');
  });

  it('sends a switch to direct with a JSON int list, and passes legacy types through', async () => {
    const f = fakeServer({ featureLevel: 420 });
    await updateScheduledMessage(f.conn, { scheduledMessageId: 3, type: 'direct', to: [9, 10] });
    await updateScheduledMessage(f.conn, { scheduledMessageId: 3, type: 'private', to: [9] });
    await updateScheduledMessage(f.conn, { scheduledMessageId: 3, type: 'stream', to: 4, topic: 'x' });
    expect(f.calls.map((c) => c.body)).toEqual([
      { type: 'direct', to: '[9,10]' },
      { type: 'private', to: '[9]' },
      { type: 'stream', to: '4', topic: 'x' },
    ]);
  });

  it('sends only the fields given', async () => {
    const f = fakeServer();
    await updateScheduledMessage(f.conn, { scheduledMessageId: 5, scheduled_delivery_timestamp: 1700000000 });
    expect(f.only().rawBody).toBe('scheduled_delivery_timestamp=1700000000');
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await updateScheduledMessage(f.conn, { scheduledMessageId: 5, topic: 'general chat' });
    expect(f.only().body).toEqual({ topic: '' });
  });

  it('surfaces the 404 BAD_REQUEST for a missing scheduled message', async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' } });
    await expect(updateScheduledMessage(f.conn, { scheduledMessageId: 9, content: 'x' })).rejects.toMatchObject({
      kind: 'api',
      code: 'BAD_REQUEST',
      httpStatus: 404,
    });
  });

  it('requires to with type (and topic for a channel) at the type level', () => {
    // @ts-expect-error changing type needs `to`
    const bad: UpdateScheduledMessageArgs = { scheduledMessageId: 1, type: 'direct' };
    // @ts-expect-error switching to a channel needs a topic
    const bad2: UpdateScheduledMessageArgs = { scheduledMessageId: 1, type: 'channel', to: 3 };
    // @ts-expect-error a direct message goes to a list of users
    const bad3: UpdateScheduledMessageArgs = { scheduledMessageId: 1, type: 'direct', to: 3 };
    const good: UpdateScheduledMessageArgs = { scheduledMessageId: 1, to: [3] };
    expect([bad, bad2, bad3, good]).toHaveLength(4);
  });
});

describe('deleteScheduledMessage (DELETE /scheduled_messages/{scheduled_message_id})', () => {
  it('sends a DELETE with no parameters', async () => {
    const f = fakeServer();
    const res = await deleteScheduledMessage(f.conn, { scheduledMessageId: 9 });
    const req = f.only();
    expect(req.method).toBe('DELETE');
    expect(req.path).toBe('/scheduled_messages/9');
    expect(req.query).toEqual({});
    expect(req.rawBody).toBeUndefined();
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('surfaces the 404 BAD_REQUEST as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' } });
    const err = await deleteScheduledMessage(f.conn, { scheduledMessageId: 9 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 404 });
  });
});
