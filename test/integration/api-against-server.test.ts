/**
 * The client (`sync/api`) against the reference server (`server/`) on loopback: every operation
 * of the spec and the referenced ones, with real encodings, real answers and real errors. Two
 * independent implementations of the same spec agreeing is the point of this suite.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addApnsDeviceToken,
  addNavigationView,
  ApiConnection,
  contentSha256,
  createSavedSnippet,
  createScheduledMessage,
  createUser,
  deleteEventQueue,
  deleteNavigationView,
  deleteSavedSnippet,
  deleteScheduledMessage,
  deleteTopic,
  editNavigationView,
  editSavedSnippet,
  fetchApiKey,
  getEvents,
  getMessage,
  getMessageHistory,
  getMessages,
  getNavigationViews,
  getOwnUser,
  getSavedSnippets,
  getScheduledMessages,
  getServerSettings,
  getStreams,
  getSubscriptions,
  getUserGroups,
  getUsers,
  markTopicAsRead,
  narrowTerm,
  registerQueue,
  sendE2eeTestNotification,
  sendInvites,
  sendMessage,
  setTypingStatus,
  setTypingStatusForMessageEdit,
  subscribe,
  updateMessage,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
  updateRealmEditingSettings,
  updateScheduledMessage,
  updateSettings,
  updateUserGroup,
  updateUserGroupMembers,
  updateUserTopic,
  type ApiError,
} from '../../sync/api/index.js';
import { startTestServer } from '../server/harness.js';
import { apiSuite, connect, conns, t } from './support.js';

apiSuite();

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected the request to fail');
}

let hamlet: ApiConnection;
let iago: ApiConnection;
let desdemona: ApiConnection;
let veronaId: number;

beforeAll(async () => {
  hamlet = connect('hamlet');
  iago = connect('iago');
  desdemona = connect('desdemona');
  const streams = await getStreams(hamlet);
  veronaId = streams.streams.find((s) => s.name === 'Verona')!.stream_id;
});

describe('sync/api against the reference server', () => {
  it('getServerSettings and fetchApiKey (no auth); the connection learns the feature level', async () => {
    const anon = new ApiConnection({ realmUrl: t.url, email: '', apiKey: '' });
    conns.push(anon);
    const s = await getServerSettings(anon);
    expect(s.zulip_feature_level).toBe(420);
    expect(anon.featureLevel).toBe(420);
    const key = await fetchApiKey(anon, { username: 'hamlet@example.com', password: 'sandbox' });
    expect(key.api_key).toBe(t.server.apiKey('hamlet@example.com'));
    const bad = await failure(fetchApiKey(anon, { username: 'hamlet@example.com', password: 'wrong' }));
    expect(bad).toMatchObject({ kind: 'unauthorized', code: 'AUTHENTICATION_FAILED' });
  });

  it('registerQueue, sendMessage with local echo, getEvents, deleteEventQueue', async () => {
    const reg = await registerQueue(hamlet, { event_types: ['message'], fetch_event_types: ['realm', 'message'] });
    expect(reg.queue_id).toBeTruthy();
    expect(hamlet.emptyTopicDisplayName).toBe(reg.realm_empty_topic_display_name);
    const sent = await sendMessage(hamlet, { type: 'channel', to: veronaId, topic: 'integration', content: 'hello **world**', queue_id: reg.queue_id!, local_id: 'loc-1' });
    const ev = await getEvents(hamlet, { queue_id: reg.queue_id!, last_event_id: reg.last_event_id, dont_block: true });
    const msgEvent = ev.events.find((e) => e.type === 'message');
    expect(msgEvent).toMatchObject({ type: 'message', local_message_id: 'loc-1', message: { id: sent.id } });
    await deleteEventQueue(hamlet, { queue_id: reg.queue_id! });
    const gone = await failure(getEvents(hamlet, { queue_id: reg.queue_id!, last_event_id: -1, dont_block: true }));
    expect(gone).toMatchObject({ kind: 'api', code: 'BAD_EVENT_QUEUE_ID', details: { code: 'BAD_EVENT_QUEUE_ID', queue_id: reg.queue_id } });
  });

  it('getMessages by anchor and narrow, by message_ids; getMessage with raw content', async () => {
    const sent = await sendMessage(hamlet, { type: 'channel', to: 'Verona', topic: 'fetching', content: 'find me' });
    const page = await getMessages(hamlet, { anchor: 'newest', num_before: 10, num_after: 0, narrow: [narrowTerm.channel(veronaId), narrowTerm.topic('fetching')] });
    expect(page.found_newest).toBe(true);
    expect(page.messages.map((m) => m.id)).toContain(sent.id);
    const byIds = await getMessages(hamlet, { message_ids: [sent.id] });
    expect(byIds.messages.map((m) => m.id)).toEqual([sent.id]);
    const one = await getMessage(hamlet, { messageId: sent.id, apply_markdown: false });
    expect(one.message.content).toBe('find me');
    expect(one.raw_content).toBe('find me');
  });

  it('updateMessage: content with a matching hash lands; a stale hash is EXPECTATION_MISMATCH', async () => {
    const sent = await sendMessage(hamlet, { type: 'channel', to: veronaId, topic: 'editing', content: 'Caf\u00e9 \u{1F600} line\r\nsecond ' });
    // The hash covers the raw content AS STORED (fetched with apply_markdown=false), never the
    // text as typed: the server normalises it (trailing whitespace goes, as in Zulip).
    const raw = (await getMessage(hamlet, { messageId: sent.id, apply_markdown: false })).message.content;
    expect(raw).toBe('Caf\u00e9 \u{1F600} line\r\nsecond');
    const typedHash = contentSha256('Caf\u00e9 \u{1F600} line\r\nsecond ');
    expect(await failure(updateMessage(hamlet, { messageId: sent.id, content: 'edited once', prev_content_sha256: typedHash }))).toMatchObject({ code: 'EXPECTATION_MISMATCH' });
    const ok = await updateMessage(hamlet, { messageId: sent.id, content: 'edited once', prev_content_sha256: contentSha256(raw) });
    expect(ok.detached_uploads).toEqual([]);
    const stale = await failure(updateMessage(hamlet, { messageId: sent.id, content: 'edited twice', prev_content_sha256: contentSha256(raw) }));
    expect(stale).toMatchObject({ kind: 'api', httpStatus: 400, code: 'EXPECTATION_MISMATCH', details: { field_name: 'prev_content_sha256' } });
    const history = await getMessageHistory(hamlet, { messageId: sent.id });
    expect(history.message_history.length).toBe(2);
  });

  it('updateMessage moves a topic with change_all; typing for edit start/stop', async () => {
    const a = await sendMessage(hamlet, { type: 'channel', to: veronaId, topic: 'before move', content: 'one' });
    await sendMessage(hamlet, { type: 'channel', to: veronaId, topic: 'before move', content: 'two' });
    await updateMessage(hamlet, { messageId: a.id, topic: 'after move', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    const moved = await getMessages(hamlet, { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [narrowTerm.channel(veronaId), narrowTerm.topic('after move')] });
    expect(moved.messages.map((m) => m.content)).toEqual(['<p>one</p>', '<p>two</p>']);
    await setTypingStatusForMessageEdit(hamlet, { messageId: a.id, op: 'start' });
    await setTypingStatusForMessageEdit(hamlet, { messageId: a.id, op: 'stop' });
    await setTypingStatus(hamlet, { type: 'channel', op: 'start', stream_id: veronaId, topic: 'after move' });
  });

  it('flags by ids and by narrow; mark topic as read', async () => {
    const m = await sendMessage(iago, { type: 'channel', to: veronaId, topic: 'flags', content: 'read me' });
    await updateMessageFlags(hamlet, { messages: [m.id], op: 'add', flag: 'starred' });
    const starred = await getMessages(hamlet, { anchor: 'newest', num_before: 5, num_after: 0, narrow: [narrowTerm.is('starred')] });
    expect(starred.messages.map((x) => x.id)).toContain(m.id);
    const r = await updateMessageFlagsForNarrow(hamlet, { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [narrowTerm.channel(veronaId), narrowTerm.topic('flags')], op: 'add', flag: 'read' });
    expect(r.processed_count).toBeGreaterThan(0);
    await markTopicAsRead(hamlet, { stream_id: veronaId, topic_name: 'flags' });
  });

  it('scheduled messages: create, list, edit, delete', async () => {
    const at = Math.floor(t.clock.now() / 1000) + 3600;
    const c = await createScheduledMessage(hamlet, { type: 'channel', to: veronaId, topic: 'later', content: 'scheduled', scheduled_delivery_timestamp: at });
    await updateScheduledMessage(hamlet, { scheduledMessageId: c.scheduled_message_id, content: 'rescheduled', scheduled_delivery_timestamp: at + 60 });
    const list = await getScheduledMessages(hamlet);
    expect(list.scheduled_messages.find((s) => s.scheduled_message_id === c.scheduled_message_id)).toMatchObject({ content: 'rescheduled', scheduled_delivery_timestamp: at + 60 });
    await deleteScheduledMessage(hamlet, { scheduledMessageId: c.scheduled_message_id });
    const missing = await failure(deleteScheduledMessage(hamlet, { scheduledMessageId: c.scheduled_message_id }));
    expect(missing).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 404 });
  });

  it('settings, subscriptions, channels, users', async () => {
    const s = await updateSettings(hamlet, { twenty_four_hour_time: true, color_scheme: 2 });
    expect(s.result).toBe('success');
    const sub = await subscribe(hamlet, { subscriptions: [{ name: 'integration channel', description: 'made by the client' }] });
    expect(Object.values(sub.subscribed).flat()).toContain('integration channel');
    const subs = await getSubscriptions(hamlet);
    expect(subs.subscriptions.map((x) => x.name)).toContain('integration channel');
    const users = await getUsers(hamlet);
    expect(users.members.length).toBeGreaterThanOrEqual(7);
    const me = await getOwnUser(hamlet);
    expect(me.email).toBe('hamlet@example.com');
    const created = await createUser(desdemona, { email: 'newbie@example.com', password: 'pw-newbie-1', full_name: 'Newbie' });
    expect(created.user_id).toBeGreaterThan(0);
    const dup = await failure(createUser(desdemona, { email: 'newbie@example.com', password: 'x', full_name: 'Again' }));
    expect(dup).toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
  });

  it('user groups and topic preferences', async () => {
    const groups = await getUserGroups(iago);
    const players = groups.user_groups.find((g) => g.name === 'players')!;
    await updateUserGroup(iago, { userGroupId: players.id, description: 'The whole cast' });
    await updateUserGroupMembers(iago, { userGroupId: players.id, add: [t.userId('shiva')] });
    const after = await getUserGroups(iago);
    expect(after.user_groups.find((g) => g.id === players.id)).toMatchObject({ description: 'The whole cast' });
    expect(after.user_groups.find((g) => g.id === players.id)?.members).toContain(t.userId('shiva'));
    const invalid = await failure(updateUserGroup(iago, { userGroupId: 999_999, name: 'x' }));
    expect(invalid).toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
    await updateUserTopic(hamlet, { stream_id: veronaId, topic: 'a topic with no messages', visibility_policy: 3 });
  });

  it('invitations, including INVITATION_FAILED with its four fields', async () => {
    await sendInvites(iago, { invitee_emails: ['fresh1@example.com'], stream_ids: [veronaId] });
    const partly = await failure(sendInvites(iago, { invitee_emails: 'hamlet@example.com,fresh2@example.com', stream_ids: [] }));
    expect(partly).toMatchObject({
      kind: 'api',
      code: 'INVITATION_FAILED',
      details: { sent_invitations: true, license_limit_reached: false, daily_limit_reached: false },
    });
  });

  it('deleteTopic loops until complete; non-admins get UNAUTHORIZED_PRINCIPAL', async () => {
    for (let i = 0; i < 3; i++) await sendMessage(hamlet, { type: 'channel', to: veronaId, topic: 'doomed', content: `m${i}` });
    const denied = await failure(deleteTopic(hamlet, { streamId: veronaId, topic_name: 'doomed' }));
    expect(denied).toMatchObject({ kind: 'api', code: 'UNAUTHORIZED_PRINCIPAL' });
    let complete = false;
    for (let i = 0; i < 10 && !complete; i++) complete = (await deleteTopic(iago, { streamId: veronaId, topic_name: 'doomed' })).complete;
    expect(complete).toBe(true);
  });

  it('push: APNs token, E2EE test notification without a device is NO_ACTIVE_PUSH_DEVICE', async () => {
    await addApnsDeviceToken(hamlet, { token: 'ab'.repeat(32), appid: 'org.zulip.Zulip' });
    const none = await failure(sendE2eeTestNotification(othello()));
    expect(none).toMatchObject({ kind: 'api', code: 'NO_ACTIVE_PUSH_DEVICE' });
  });

  it('navigation views with a slash fragment, and saved snippets', async () => {
    await addNavigationView(hamlet, { fragment: 'narrow/channel/9-integration', is_pinned: true, name: 'Integration' });
    await editNavigationView(hamlet, { fragment: 'narrow/channel/9-integration', is_pinned: false });
    expect((await getNavigationViews(hamlet)).navigation_views).toContainEqual({ fragment: 'narrow/channel/9-integration', is_pinned: false, name: 'Integration' });
    await deleteNavigationView(hamlet, { fragment: 'narrow/channel/9-integration' });
    const s = await createSavedSnippet(hamlet, { title: 'Sign-off', content: 'Cheers' });
    await editSavedSnippet(hamlet, { savedSnippetId: s.saved_snippet_id, content: 'Cheers, H.' });
    expect((await getSavedSnippets(hamlet)).saved_snippets.find((x) => x.id === s.saved_snippet_id)?.content).toBe('Cheers, H.');
    await deleteSavedSnippet(hamlet, { savedSnippetId: s.saved_snippet_id });
    const empty = await failure(createSavedSnippet(hamlet, { title: '', content: 'x' }));
    expect(empty).toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
  });

  it('realm editing settings (administrators only)', async () => {
    await updateRealmEditingSettings(iago, { message_content_edit_limit_seconds: 1200 });
    const denied = await failure(updateRealmEditingSettings(hamlet, { allow_message_editing: false }));
    expect(denied.kind).toBe('api');
  });

  it('a wrong API key is unauthorized; a rate-limited server answers rate_limited with retryAfterMs', async () => {
    const wrong = new ApiConnection({ realmUrl: t.url, email: 'hamlet@example.com', apiKey: 'nope', logger: { warn: () => undefined } });
    conns.push(wrong);
    expect(await failure(getOwnUser(wrong))).toMatchObject({ kind: 'unauthorized', code: 'INVALID_API_KEY' });
    const limited = await startTestServer({ config: { rateLimit: { requests: 2, windowSeconds: 60, authRequests: 5, authWindowSeconds: 60 } } });
    try {
      const c = new ApiConnection({ realmUrl: limited.url, email: 'hamlet@example.com', apiKey: limited.server.apiKey('hamlet@example.com'), logger: { warn: () => undefined } });
      conns.push(c);
      await getOwnUser(c);
      await getOwnUser(c);
      const err = await failure(getOwnUser(c));
      expect(err).toMatchObject({ kind: 'rate_limited', httpStatus: 429 });
      expect(err.kind === 'rate_limited' && err.retryAfterMs).toBeGreaterThan(0);
      expect(c.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
    } finally {
      await limited.close();
    }
  });
});

function othello(): ApiConnection {
  return connect('othello');
}
