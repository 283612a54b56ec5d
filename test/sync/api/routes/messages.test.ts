import { describe, expect, it } from 'vitest';
import { UnsupportedFeatureError, ZulipApiError } from '../../../../sync/api/errors.js';
import {
  MAX_MESSAGES_PER_FETCH,
  contentSha256,
  deleteTopic,
  getMessage,
  getMessageHistory,
  getMessages,
  markTopicAsRead,
  sendMessage,
  setTypingStatus,
  setTypingStatusForMessageEdit,
  updateMessage,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
  type GetMessagesArgs,
  type SendMessageArgs,
  type UpdateMessageArgs,
} from '../../../../sync/api/routes/messages.js';
import { negate, narrowTerm } from '../../../../sync/api/schemas/narrow.js';
import * as eg from '../../../support/eg.js';
import { fakeServer, ok } from '../fake-transport.js';

const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('updateMessage (PATCH /messages/{message_id})', () => {
  it('sends a content edit as raw strings in the form body and parses detached_uploads', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(
      ok({
        detached_uploads: [
          { id: 3, name: 'a.jpg', path_id: '2/5d/x/a.jpg', size: 1339060, create_time: 1687984706, message_ids: [] },
        ],
      }),
    );
    const res = await updateMessage(f.conn, {
      messageId: 42,
      content: 'new **text** & a+b=c\nline 2 ✔',
      prev_content_sha256: ABC_SHA256,
      propagate_mode: 'change_one',
    });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/messages/42');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      content: 'new **text** & a+b=c\nline 2 ✔',
      prev_content_sha256: ABC_SHA256,
      propagate_mode: 'change_one',
    });
    expect(res.detached_uploads).toEqual([
      { id: 3, name: 'a.jpg', path_id: '2/5d/x/a.jpg', size: 1339060, create_time: 1687984706, message_ids: [] },
    ]);
  });

  it('sends a move with JSON booleans, a JSON int stream_id and the raw topic', async () => {
    const f = fakeServer({ featureLevel: 420 });
    await updateMessage(f.conn, {
      messageId: 7,
      topic: '✔ castle',
      stream_id: 12,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: true,
    });
    const req = f.only();
    expect(req.body).toEqual({
      topic: '✔ castle',
      stream_id: '12',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: 'false',
      send_notification_to_new_thread: 'true',
    });
    expect(req.query).toEqual({});
  });

  it('omits every parameter not given (nothing is sent as "null" or "undefined")', async () => {
    const f = fakeServer();
    await updateMessage(f.conn, { messageId: 1, topic: 'x' });
    expect(f.only().rawBody).toBe('topic=x');
  });

  it('defaults detached_uploads to [] for servers before FL 285', async () => {
    const f = fakeServer({ featureLevel: 200 });
    const res = await updateMessage(f.conn, { messageId: 1, content: 'c' });
    expect(res.detached_uploads).toEqual([]);
  });

  it('omits prev_content_sha256 at FL 378', async () => {
    const f = fakeServer({ featureLevel: 378 });
    await updateMessage(f.conn, { messageId: 1, content: 'abc', prev_content_sha256: ABC_SHA256 });
    expect(f.only().body).toEqual({ content: 'abc' });
  });

  it('sends prev_content_sha256 raw at FL 379', async () => {
    const f = fakeServer({ featureLevel: 379 });
    await updateMessage(f.conn, { messageId: 1, content: 'abc', prev_content_sha256: contentSha256('abc') });
    expect(f.only().body).toEqual({ content: 'abc', prev_content_sha256: ABC_SHA256 });
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await updateMessage(f.conn, { messageId: 3, topic: 'general chat', propagate_mode: 'change_later' });
    expect(f.only().body).toEqual({ topic: '', propagate_mode: 'change_later' });
  });

  it('surfaces EXPECTATION_MISMATCH as an api error', async () => {
    const f = fakeServer();
    f.reply({
      status: 400,
      json: {
        result: 'error',
        code: 'EXPECTATION_MISMATCH',
        msg: "'prev_content_sha256' value does not match the expected value.",
        field_name: 'prev_content_sha256',
      },
    });
    const err = await updateMessage(f.conn, { messageId: 1, content: 'x', prev_content_sha256: 'f' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ code: 'EXPECTATION_MISMATCH', httpStatus: 400 });
  });

  it('makes content together with stream_id a type error', () => {
    // @ts-expect-error content and stream_id cannot be combined (spec rule 1)
    const bad: UpdateMessageArgs = { messageId: 1, content: 'x', stream_id: 2 };
    // @ts-expect-error prev_content_sha256 only goes with a content edit
    const bad2: UpdateMessageArgs = { messageId: 1, stream_id: 2, prev_content_sha256: 'aa' };
    const good: UpdateMessageArgs[] = [
      { messageId: 1, content: 'x', topic: 't' },
      { messageId: 1, stream_id: 2, topic: 't' },
    ];
    expect([bad, bad2, good].length).toBe(3);
  });

  it('contentSha256 is the hex SHA-256 of the UTF-8 text', () => {
    expect(contentSha256('abc')).toBe(ABC_SHA256);
    expect(contentSha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('getMessage (GET /messages/{message_id})', () => {
  it('puts JSON booleans in the query string and parses message and raw_content', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ message: eg.streamMessage({ id: 16, content: '**hi**', content_type: 'text/x-markdown', flags: ['read'] }), raw_content: '**hi**' }));
    const res = await getMessage(f.conn, { messageId: 16, apply_markdown: false });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/messages/16');
    expect(req.query).toEqual({ apply_markdown: 'false', allow_empty_topic_name: 'true' });
    expect(req.body).toEqual({});
    expect(req.rawBody).toBeUndefined();
    expect(res.message).toMatchObject({ id: 16, content: '**hi**', content_type: 'text/x-markdown', flags: ['read'] });
    expect(res.raw_content).toBe('**hi**');
  });

  it('does not send allow_empty_topic_name below FL 334', async () => {
    const f = fakeServer({ featureLevel: 333 });
    f.reply(ok({ message: eg.streamMessage({ id: 1 }) }));
    const res = await getMessage(f.conn, { messageId: 1 });
    expect(f.only().query).toEqual({});
    expect(res.raw_content).toBeUndefined();
  });

  it('sends allow_empty_topic_name=true at FL 334, and an explicit false when asked', async () => {
    const f = fakeServer({ featureLevel: 334 });
    f.reply(ok({ message: eg.streamMessage({ id: 1 }) }));
    f.reply(ok({ message: eg.streamMessage({ id: 1 }) }));
    await getMessage(f.conn, { messageId: 1 });
    await getMessage(f.conn, { messageId: 1, allow_empty_topic_name: false });
    expect(f.calls.map((c) => c.query)).toEqual([{ allow_empty_topic_name: 'true' }, { allow_empty_topic_name: 'false' }]);
  });

  it('surfaces "Invalid message(s)" as BAD_REQUEST', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' } });
    await expect(getMessage(f.conn, { messageId: 99 })).rejects.toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
  });
});

describe('getMessages (GET /messages)', () => {
  it('sends an anchored fetch entirely in the query string with the right encodings', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(
      ok({
        anchor: 43,
        found_newest: true,
        found_oldest: false,
        found_anchor: true,
        history_limited: false,
        messages: [eg.streamMessage({ id: 43 })],
      }),
    );
    const res = await getMessages(f.conn, {
      anchor: 43,
      include_anchor: false,
      num_before: 4,
      num_after: 8,
      narrow: [narrowTerm.channel(5), negate(narrowTerm.sender(9)), narrowTerm.dm([1, 2])],
      client_gravatar: false,
      apply_markdown: true,
    });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/messages');
    expect(req.rawBody).toBeUndefined();
    expect(req.query).toEqual({
      anchor: '43',
      include_anchor: 'false',
      num_before: '4',
      num_after: '8',
      narrow:
        '[{"operator":"channel","operand":5},{"operator":"sender","operand":9,"negated":true},{"operator":"dm","operand":[1,2]}]',
      client_gravatar: 'false',
      apply_markdown: 'true',
      allow_empty_topic_name: 'true',
    });
    expect(res).toMatchObject({
      anchor: 43,
      found_newest: true,
      found_oldest: false,
      found_anchor: true,
      history_limited: false,
    });
    expect(res.messages.map((m) => m.id)).toEqual([43]);
  });

  it('sends the special anchors raw and a string operand raw inside the JSON narrow', async () => {
    const f = fakeServer({ featureLevel: 420 });
    for (const anchor of ['newest', 'oldest', 'first_unread'] as const) {
      f.reply(ok({ messages: [] }));
      await getMessages(f.conn, { anchor, num_before: 1, num_after: 0, narrow: [narrowTerm.channel('Den mark')] });
    }
    expect(f.calls.map((c) => c.query.anchor)).toEqual(['newest', 'oldest', 'first_unread']);
    expect(f.calls[0]!.query.narrow).toBe('[{"operator":"channel","operand":"Den mark"}]');
  });

  it('accepts the OpenAPI example shape, where found_oldest and history_limited are absent', async () => {
    const f = fakeServer();
    f.reply(ok({ anchor: 21, found_newest: true, found_anchor: true, messages: [eg.streamMessage({ id: 21 })] }));
    const res = await getMessages(f.conn, { anchor: 21, num_before: 0, num_after: 0 });
    expect(res).toMatchObject({ anchor: 21, found_newest: true, found_anchor: true, found_oldest: false, history_limited: false });
  });

  it('fetches by message_ids as a JSON list, with no range parameters, and no anchor in the answer', async () => {
    const f = fakeServer({ featureLevel: 300 });
    f.reply(ok({ found_newest: false, found_oldest: false, found_anchor: false, history_limited: false, messages: [eg.streamMessage({ id: 2 })] }));
    const res = await getMessages(f.conn, { message_ids: [1, 2, 3], apply_markdown: false });
    const req = f.only();
    expect(req.path).toBe('/messages');
    expect(req.query).toEqual({ message_ids: '[1,2,3]', apply_markdown: 'false' });
    expect(res.anchor).toBeUndefined();
    expect(res.messages[0]!.id).toBe(2);
  });

  it('rejects message_ids below FL 300 without a request', async () => {
    const f = fakeServer({ featureLevel: 299 });
    const err = await getMessages(f.conn, { message_ids: [1] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedFeatureError);
    expect(err).toMatchObject({ requiredFeatureLevel: 300, serverFeatureLevel: 299 });
    expect(f.calls).toHaveLength(0);
  });

  it('rejects num_before + num_after above 5000 with a RangeError before any request', async () => {
    const f = fakeServer();
    await expect(getMessages(f.conn, { anchor: 'newest', num_before: 2500, num_after: 2501 })).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(getMessages(f.conn, { anchor: 'newest', num_before: -1, num_after: 0 })).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(getMessages(f.conn, { anchor: 1.5, num_before: 1, num_after: 0 })).rejects.toBeInstanceOf(RangeError);
    expect(f.calls).toHaveLength(0);
    f.reply(ok({ messages: [] }));
    await getMessages(f.conn, { anchor: 'newest', num_before: 2500, num_after: 2500 });
    expect(f.only().query).toMatchObject({ num_before: '2500', num_after: '2500' });
    expect(MAX_MESSAGES_PER_FETCH).toBe(5000);
  });

  it('leaves allow_empty_topic_name out below FL 334 and sends true at 334', async () => {
    const old = fakeServer({ featureLevel: 333 });
    old.reply(ok({ messages: [] }));
    await getMessages(old.conn, { anchor: 'newest', num_before: 10, num_after: 0 });
    expect(old.only().query).toEqual({ anchor: 'newest', num_before: '10', num_after: '0' });
    const cur = fakeServer({ featureLevel: 334 });
    cur.reply(ok({ messages: [] }));
    await getMessages(cur.conn, { anchor: 'newest', num_before: 10, num_after: 0 });
    expect(cur.only().query.allow_empty_topic_name).toBe('true');
  });

  it('sends a topic operand equal to the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    f.reply(ok({ messages: [] }));
    await getMessages(f.conn, {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 100,
      narrow: [narrowTerm.channel(5), narrowTerm.topic('general chat')],
    });
    expect(f.only().query.narrow).toBe('[{"operator":"channel","operand":5},{"operator":"topic","operand":""}]');
  });

  it('surfaces BAD_NARROW as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown', desc: 'x' } });
    await expect(getMessages(f.conn, { anchor: 'newest', num_before: 1, num_after: 0 })).rejects.toMatchObject({
      code: 'BAD_NARROW',
    });
  });

  it('makes mixing message_ids with a range a type error', () => {
    // @ts-expect-error message_ids cannot be combined with anchor/num_before/num_after
    const bad: GetMessagesArgs = { message_ids: [1], anchor: 'newest', num_before: 1, num_after: 1 };
    // @ts-expect-error an anchored fetch needs num_before and num_after
    const bad2: GetMessagesArgs = { anchor: 'newest' };
    expect([bad, bad2]).toHaveLength(2);
  });
});

describe('sendMessage (POST /messages)', () => {
  it('sends a channel message by id: type channel, JSON int to, raw strings, JSON bool', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ id: 42, automatic_new_visibility_policy: 3 }));
    const res = await sendMessage(f.conn, {
      type: 'channel',
      to: 5,
      topic: 'castle',
      content: 'Hello & goodbye',
      queue_id: 'fb67bf8a-c031',
      local_id: '100.01',
      read_by_sender: true,
    });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/messages');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      type: 'channel',
      to: '5',
      topic: 'castle',
      content: 'Hello & goodbye',
      queue_id: 'fb67bf8a-c031',
      local_id: '100.01',
      read_by_sender: 'true',
    });
    expect(res).toMatchObject({ id: 42, automatic_new_visibility_policy: 3 });
  });

  it('sends type stream at FL 247 and channel at FL 248', async () => {
    const old = fakeServer({ featureLevel: 247 });
    old.reply(ok({ id: 1 }));
    await sendMessage(old.conn, { type: 'channel', to: 'Denmark', topic: 't', content: 'c' });
    expect(old.only().body).toEqual({ type: 'stream', to: 'Denmark', topic: 't', content: 'c' });
    const cur = fakeServer({ featureLevel: 248 });
    cur.reply(ok({ id: 1 }));
    await sendMessage(cur.conn, { type: 'channel', to: 'Denmark', topic: 't', content: 'c' });
    expect(cur.only().body.type).toBe('channel');
  });

  it('sends a direct message to user ids as a JSON list, without a topic', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ id: 2 }));
    const res = await sendMessage(f.conn, { type: 'direct', to: [9, 10], content: 'hi' });
    expect(f.only().body).toEqual({ type: 'direct', to: '[9,10]', content: 'hi' });
    expect(res.automatic_new_visibility_policy).toBeUndefined();
  });

  it('sends emails as a JSON list of strings, and private before FL 174', async () => {
    const f = fakeServer({ featureLevel: 173 });
    f.reply(ok({ id: 3 }));
    await sendMessage(f.conn, { type: 'direct', to: ['a@x.com', 'b@x.com'], content: 'hi' });
    expect(f.only().body).toEqual({ type: 'private', to: '["a@x.com","b@x.com"]', content: 'hi' });
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    f.reply(ok({ id: 4 }));
    await sendMessage(f.conn, { type: 'channel', to: 5, topic: 'general chat', content: 'c' });
    expect(f.only().body.topic).toBe('');
  });

  it('degrades an unknown automatic_new_visibility_policy instead of failing', async () => {
    const f = fakeServer();
    f.reply(ok({ id: 5, automatic_new_visibility_policy: 7 }));
    const res = await sendMessage(f.conn, { type: 'direct', to: [1], content: 'c' });
    expect(res.automatic_new_visibility_policy).toBe('unknown');
  });

  it('requires queue_id and local_id together, and a topic for channel messages, at the type level', () => {
    // @ts-expect-error queue_id without local_id
    const bad: SendMessageArgs = { type: 'direct', to: [1], content: 'c', queue_id: 'q' };
    // @ts-expect-error a channel message needs a topic
    const bad2: SendMessageArgs = { type: 'channel', to: 1, content: 'c' };
    expect([bad, bad2]).toHaveLength(2);
  });
});

describe('updateMessageFlags (POST /messages/flags)', () => {
  it('sends messages as a JSON list and op/flag raw; parses the answer', async () => {
    const f = fakeServer();
    f.reply(ok({ messages: [4, 18, 15], ignored_because_not_subscribed_channels: [12] }));
    const res = await updateMessageFlags(f.conn, { messages: [4, 18, 15], op: 'remove', flag: 'read' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/messages/flags');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ messages: '[4,18,15]', op: 'remove', flag: 'read' });
    expect(res.messages).toEqual([4, 18, 15]);
    expect(res.ignored_because_not_subscribed_channels).toEqual([12]);
  });
});

describe('updateMessageFlagsForNarrow (POST /messages/flags/narrow)', () => {
  it('sends anchor raw, counts as JSON ints, the narrow as JSON objects; parses null ids', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(
      ok({
        processed_count: 0,
        updated_count: 0,
        first_processed_id: null,
        last_processed_id: null,
        found_oldest: true,
        found_newest: true,
      }),
    );
    const res = await updateMessageFlagsForNarrow(f.conn, {
      anchor: 'oldest',
      include_anchor: false,
      num_before: 0,
      num_after: 1000,
      narrow: [narrowTerm.channel(5), narrowTerm.topic('castle'), narrowTerm.is('unread')],
      op: 'add',
      flag: 'read',
    });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/messages/flags/narrow');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      anchor: 'oldest',
      include_anchor: 'false',
      num_before: '0',
      num_after: '1000',
      narrow:
        '[{"operator":"channel","operand":5},{"operator":"topic","operand":"castle"},{"operator":"is","operand":"unread"}]',
      op: 'add',
      flag: 'read',
    });
    expect(res).toMatchObject({ processed_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true });
    expect(res.ignored_because_not_subscribed_channels).toBeUndefined();
  });

  it('parses a partial range answer', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        processed_count: 11,
        updated_count: 8,
        first_processed_id: 35,
        last_processed_id: 55,
        found_oldest: false,
        found_newest: true,
        ignored_because_not_subscribed_channels: [12, 13],
      }),
    );
    const res = await updateMessageFlagsForNarrow(f.conn, {
      anchor: 35,
      num_before: 0,
      num_after: 20,
      narrow: [],
      op: 'remove',
      flag: 'read',
    });
    expect(f.only().body).toMatchObject({ anchor: '35', narrow: '[]' });
    expect(res).toMatchObject({ processed_count: 11, updated_count: 8, first_processed_id: 35, last_processed_id: 55 });
    expect(res.ignored_because_not_subscribed_channels).toEqual([12, 13]);
  });
});

describe('markTopicAsRead (POST /mark_topic_as_read)', () => {
  it('sends stream_id as a JSON int and topic_name raw', async () => {
    const f = fakeServer();
    const res = await markTopicAsRead(f.conn, { stream_id: 43, topic_name: 'new coffee machine' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/mark_topic_as_read');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ stream_id: '43', topic_name: 'new coffee machine' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await markTopicAsRead(f.conn, { stream_id: 1, topic_name: 'general chat' });
    expect(f.only().body).toEqual({ stream_id: '1', topic_name: '' });
  });
});

describe('getMessageHistory (GET /messages/{message_id}/history)', () => {
  it('puts allow_empty_topic_name in the query and parses the snapshots', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(
      ok({
        message_history: [
          { content: 'Hello!', topic: 'party at my houz', rendered_content: '<p>Hello!</p>', timestamp: 1530129122, user_id: 5 },
          {
            topic: 'party at my house',
            content: 'Howdy!',
            prev_content: 'Hello!',
            rendered_content: '<p>Howdy!</p>',
            user_id: null,
            prev_rendered_content: '<p>Hello!</p>',
            content_html_diff: '<div>…</div>',
            prev_topic: 'party at my houz',
            prev_stream: 3,
            stream: 4,
            timestamp: 1530129134,
          },
        ],
      }),
    );
    const res = await getMessageHistory(f.conn, { messageId: 43 });
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/messages/43/history');
    expect(req.query).toEqual({ allow_empty_topic_name: 'true' });
    expect(req.rawBody).toBeUndefined();
    expect(res.message_history).toHaveLength(2);
    expect(res.message_history[0]).toEqual({
      content: 'Hello!',
      topic: 'party at my houz',
      rendered_content: '<p>Hello!</p>',
      timestamp: 1530129122,
      user_id: 5,
    });
    expect(res.message_history[1]).toMatchObject({ user_id: null, prev_topic: 'party at my houz', prev_stream: 3, stream: 4 });
  });

  it('sends no allow_empty_topic_name below FL 334', async () => {
    const f = fakeServer({ featureLevel: 333 });
    f.reply(ok({ message_history: [] }));
    await getMessageHistory(f.conn, { messageId: 1 });
    expect(f.only().query).toEqual({});
  });
});

describe('setTypingStatus (POST /typing)', () => {
  it('sends direct typing with a JSON list even for one recipient', async () => {
    const f = fakeServer({ featureLevel: 420 });
    const res = await setTypingStatus(f.conn, { type: 'direct', op: 'start', to: [9] });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/typing');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ type: 'direct', op: 'start', to: '[9]' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('sends type private for direct typing before FL 174', async () => {
    const f = fakeServer({ featureLevel: 173 });
    await setTypingStatus(f.conn, { type: 'direct', op: 'stop', to: [9, 10] });
    expect(f.only().body).toEqual({ type: 'private', op: 'stop', to: '[9,10]' });
  });

  it('sends channel typing with a JSON int stream_id and raw topic, type channel at FL 248', async () => {
    const f = fakeServer({ featureLevel: 248 });
    await setTypingStatus(f.conn, { type: 'channel', op: 'start', stream_id: 7, topic: 'typing notifications' });
    expect(f.only().body).toEqual({ type: 'channel', op: 'start', stream_id: '7', topic: 'typing notifications' });
  });

  it('sends type stream for channel typing at FL 247', async () => {
    const f = fakeServer({ featureLevel: 247 });
    await setTypingStatus(f.conn, { type: 'channel', op: 'stop', stream_id: 7, topic: 't' });
    expect(f.only().body).toEqual({ type: 'stream', op: 'stop', stream_id: '7', topic: 't' });
  });

  it('sends nothing for channel typing before FL 215 and resolves undefined', async () => {
    const f = fakeServer({ featureLevel: 214 });
    const res = await setTypingStatus(f.conn, { type: 'channel', op: 'start', stream_id: 7, topic: 't' });
    expect(res).toBeUndefined();
    expect(f.calls).toHaveLength(0);
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    await setTypingStatus(f.conn, { type: 'channel', op: 'start', stream_id: 7, topic: 'general chat' });
    expect(f.only().body.topic).toBe('');
  });
});

describe('setTypingStatusForMessageEdit (POST /messages/{message_id}/typing)', () => {
  it('uses the path form from FL 361', async () => {
    const f = fakeServer({ featureLevel: 361 });
    const res = await setTypingStatusForMessageEdit(f.conn, { messageId: 47, op: 'start' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/messages/47/typing');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ op: 'start' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('uses POST /message_edit_typing with a JSON int message_id at FL 355', async () => {
    const f = fakeServer({ featureLevel: 355 });
    const res = await setTypingStatusForMessageEdit(f.conn, { messageId: 47, op: 'stop' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/message_edit_typing');
    expect(req.body).toEqual({ message_id: '47', op: 'stop' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('uses the old path at the edges FL 351 and FL 360', async () => {
    for (const featureLevel of [351, 360]) {
      const f = fakeServer({ featureLevel });
      await setTypingStatusForMessageEdit(f.conn, { messageId: 1, op: 'start' });
      expect(f.only().path).toBe('/message_edit_typing');
    }
  });

  it('sends nothing at FL 350 and resolves undefined', async () => {
    const f = fakeServer({ featureLevel: 350 });
    const res = await setTypingStatusForMessageEdit(f.conn, { messageId: 47, op: 'start' });
    expect(res).toBeUndefined();
    expect(f.calls).toHaveLength(0);
  });
});

describe('deleteTopic (POST /streams/{stream_id}/delete_topic)', () => {
  it('sends topic_name raw in the body and parses complete', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.reply(ok({ complete: true }));
    const res = await deleteTopic(f.conn, { streamId: 1, topic_name: 'new coffee machine' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/streams/1/delete_topic');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ topic_name: 'new coffee machine' });
    expect(res.complete).toBe(true);
  });

  it('reads complete: false as "repeat"', async () => {
    const f = fakeServer();
    f.reply(ok({ complete: false }));
    expect((await deleteTopic(f.conn, { streamId: 1, topic_name: 't' })).complete).toBe(false);
  });

  it('maps the pre-FL 211 result "partially_completed" to complete: false', async () => {
    const f = fakeServer({ featureLevel: 200 });
    f.reply({ json: { result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT' } });
    const res = await deleteTopic(f.conn, { streamId: 1, topic_name: 't' });
    expect(res).toEqual({ result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT', complete: false });
  });

  it('reads a pre-FL 211 plain success (no complete field) as complete', async () => {
    const f = fakeServer({ featureLevel: 200 });
    f.reply(ok());
    expect((await deleteTopic(f.conn, { streamId: 1, topic_name: 't' })).complete).toBe(true);
  });

  it('sends the empty-topic display name as ""', async () => {
    const f = fakeServer({ featureLevel: 420 });
    f.conn.emptyTopicDisplayName = 'general chat';
    f.reply(ok({ complete: true }));
    await deleteTopic(f.conn, { streamId: 3, topic_name: 'general chat' });
    expect(f.only().body).toEqual({ topic_name: '' });
  });

  it('surfaces UNAUTHORIZED_PRINCIPAL as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' } });
    const err = await deleteTopic(f.conn, { streamId: 1, topic_name: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL' });
  });
});

describe('getMessages anchor sentinel', () => {
  it("accepts real Zulip's anchor 10000000000000000 for anchor=newest (above 2^53)", async () => {
    const f = fakeServer();
    f.reply({ status: 200, text: '{"result":"success","msg":"","anchor":10000000000000000,"found_newest":true,"found_oldest":true,"found_anchor":false,"history_limited":false,"messages":[]}' });
    const res = await getMessages(f.conn, { anchor: 'newest', num_before: 1, num_after: 0 });
    expect(res.anchor).toBe(10000000000000000);
  });
});
