/**
 * The outbox through the engine service, as the UI uses it: queued commands answer at once while
 * the server is unreachable, the badge counts and the outbox view follow, an `areas: outbox` event
 * is pushed on every change, and once the network is back (nudge) everything drains to `done`.
 * Online-only operations fail at once with OFFLINE and queue nothing; online they run.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxCounts, OutboxRowView } from '../../../sync/protocol/index.js';
import { post } from '../../server/edit-helpers.js';
import { channelId } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

describe('the outbox through the engine service', () => {
  it('offline: commands answer at once, counts and view follow; back online everything drains to done', async () => {
    const { svc, client, events, call } = await signedIn('hamlet');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');

    const created = (await call('createSavedSnippet', { title: 'from the train', content: 'queued offline' })) as { outbox_id: number; snippet_id: number; outcome: string };
    expect(created).toMatchObject({ outcome: 'added' });
    expect(created.snippet_id).toBeLessThan(0);
    await call('updateSettings', { settings: { enter_sends: true } });
    await call('updateUserTopic', { channel_id: channelId(t, 'Verona'), topic: 'trains', visibility_policy: 3 });
    // Shown locally at once.
    expect((await call('savedSnippets')) as Array<{ id: number }>).toContainEqual(expect.objectContaining({ id: created.snippet_id, title: 'from the train' }));
    expect(((await call('userSettings')) as Record<string, unknown>)['enter_sends']).toBe(true);
    expect((await call('outboxCounts')) as OutboxCounts).toEqual({ pending: 3, failed: 0, conflict: 0 });
    const rows = (await call('outbox')) as OutboxRowView[];
    expect(rows.map((r) => r.kind)).toEqual(['create_saved_snippet', 'update_settings', 'update_user_topic']);
    expect(rows.every((r) => r.state === 'queued' || r.state === 'retry_wait' || r.state === 'sending')).toBe(true);
    expect(events.some((e) => e.type === 'areas' && e.areas.includes('outbox'))).toBe(true);

    // A refused intent and an impossible action write nothing.
    const bad = await client.invoke('updateSettings', { settings: { new_password: 'x' } });
    expect(bad.ok === false && bad.error.code).toBe('INVALID_REQUEST');
    const noRow = await client.invoke('outboxRetry', { outbox_id: 9999 });
    expect(noRow.ok === false && noRow.error.code).toBe('INVALID_REQUEST');

    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    const finished = (await call('outbox', { include_finished: true })) as OutboxRowView[];
    expect(finished.map((r) => r.state)).toEqual(['done', 'done', 'done']);
    expect((await call('outbox')) as OutboxRowView[]).toEqual([]);
    const server = (await t.as('hamlet').get('/saved_snippets')).json.saved_snippets as Array<{ id: number; title: string }>;
    const mine = server.filter((s) => s.title === 'from the train');
    expect(mine).toHaveLength(1);
    await until(() => svc.activeSession?.queries.savedSnippets().some((s) => s.id === mine[0]!.id) === true, 10_000, 'adopted');
    expect(svc.activeSession?.queries.savedSnippets().some((s) => s.id === created.snippet_id)).toBe(false);
    // Done again is not retryable.
    const again = await client.invoke('outboxRetry', { outbox_id: created.outbox_id });
    expect(again.ok === false && again.error.code).toBe('INVALID_REQUEST');
    await svc.close();
  });

  it('scheduled messages: send now takes the text and recipient from the local copy; a DM recipient change leaves the sender out', async () => {
    const { svc, client, call } = await signedIn('hamlet');
    const list = (await call('scheduledMessages')) as Array<{ scheduled_message_id: number; type: string; to: number | number[]; content: string; scheduled_delivery_timestamp: number }>;
    const dm = list.find((m) => m.type === 'private');
    const castle = list.find((m) => m.content === 'Reminder: the masons start today.');
    if (!dm || !castle) throw new Error('demo scheduled messages missing');
    const me = t.userId('hamlet');
    const cordelia = t.userId('cordelia');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');

    await call('updateScheduledMessage', { scheduled_message_id: castle.scheduled_message_id, content: 'Reminder: the masons start tomorrow.' });
    const sendNow = (await call('sendScheduledMessageNow', { scheduled_message_id: castle.scheduled_message_id })) as { outbox_id: number };
    // The time it was scheduled for goes with it: a delivery by the server since then counts as sent.
    expect(svc.activeSession?.outbox.store.get(sendNow.outbox_id)?.base).toMatchObject({ scheduled_at: castle.scheduled_delivery_timestamp });
    await call('updateScheduledMessage', { scheduled_message_id: dm.scheduled_message_id, recipient: { type: 'direct', user_ids: [me, cordelia] } });
    const unknown = await client.invoke('sendScheduledMessageNow', { scheduled_message_id: 987654 });
    expect(unknown.ok === false && unknown.error.code).toBe('INVALID_REQUEST');
    const rows = (await call('outbox')) as OutboxRowView[];
    expect(rows.map((r) => [r.kind, r.args])).toEqual([
      ['update_scheduled_message', expect.objectContaining({ content: 'Reminder: the masons start tomorrow.' })],
      // The edit queued before it is in the text sent.
      ['send_scheduled_message_now', expect.objectContaining({ to: { type: 'channel', stream_id: channelId(t, 'Denmark'), topic: 'castle' }, content: 'Reminder: the masons start tomorrow.' })],
      ['update_scheduled_message', expect.objectContaining({ recipient: { type: 'direct', to: [cordelia] } })],
    ]);

    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => (svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    const server = (await t.as('hamlet').get('/scheduled_messages')).json.scheduled_messages as Array<{ scheduled_message_id: number; to: unknown }>;
    expect(server.some((m) => m.scheduled_message_id === castle.scheduled_message_id)).toBe(false);
    expect(server.find((m) => m.scheduled_message_id === dm.scheduled_message_id)?.to).toEqual([cordelia]);
    const sent = (await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channelId(t, 'Denmark') }, { operator: 'topic', operand: 'castle' }], apply_markdown: false })).json
      .messages as Array<{ content: string }>;
    expect(sent.filter((m) => m.content === 'Reminder: the masons start tomorrow.')).toHaveLength(1);
    await svc.close();
  });

  it("editMessage carries the realm's edit deadline; a conflict shows its texts and take theirs hands ours back", async () => {
    const { svc, call } = await signedIn('hamlet');
    const id = post(t, 'hamlet', 'Verona', 'service edit', 'meet at 10:00');
    await until(() => svc.activeSession?.queries.channels().some((c) => c.topics.some((tp) => tp.topic === 'service edit')) === true, 10_000, 'cached');
    const { raw_content } = (await call('messageRawContent', { message_id: id })) as { raw_content: string };
    expect(raw_content).toBe('meet at 10:00');
    await proxy.pause();
    const edited = (await call('updateMessageContent', { message_id: id, content: 'meet at 11:00', base_raw_content: raw_content })) as { outbox_id: number };
    const [row] = (await call('outbox')) as OutboxRowView[];
    // Hamlet is a member: the demo realm's 600 s content-edit limit binds him.
    expect(row).toMatchObject({ outbox_id: edited.outbox_id, kind: 'update_message_content', target: `message:${id}`, deadline_at: (Math.floor(t.clock.now() / 1000) + 600) * 1000 });
    // Meanwhile another device changes the same words.
    expect((await t.as('hamlet').patch(`/messages/${id}`, { content: 'meet at 10:30' })).status).toBe(200);
    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => svc.activeSession?.outbox.counts().conflict === 1, 15_000, 'conflict');
    const [conflict] = (await call('outbox')) as OutboxRowView[];
    expect(conflict).toMatchObject({ state: 'conflict', conflict: { base: 'meet at 10:00', ours: 'meet at 11:00', theirs: 'meet at 10:30', merged: '<<<<<<< yours\nmeet at 11:00\n=======\nmeet at 10:30\n>>>>>>> theirs' }, last_error: { kind: 'conflict' } });
    expect(await call('outboxResolveConflict', { outbox_id: edited.outbox_id, choice: { choice: 'take_theirs' } })).toEqual({ ok: true, draft: 'meet at 11:00' });
    // The text the user gave up is kept as a draft of that conversation, durably (not in renderer memory).
    expect((await call('drafts')) as Array<{ to: unknown; content: string }>).toContainEqual(
      expect.objectContaining({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'service edit' }, content: 'meet at 11:00' }),
    );
    expect((await call('outboxCounts')) as OutboxCounts).toEqual({ pending: 0, failed: 0, conflict: 0 });
    expect(((await t.as('hamlet').get(`/messages/${id}`, { apply_markdown: false })).json as { raw_content: string }).raw_content).toBe('meet at 10:30');
    await svc.close();
  });

  it('online-only operations fail at once with OFFLINE and queue nothing', async () => {
    const { svc, client, call } = await signedIn('iago');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    const before = proxy.log.length;
    for (const [name, payload] of [
      ['deleteTopic', { channel_id: channelId(t, 'Verona'), topic: 'doomed' }],
      ['sendInvites', { emails: ['new@example.com'], channel_ids: [] }],
      ['createUser', { email: 'made@example.com', password: 'pw-123456', full_name: 'Made' }],
      ['inviteOptions', {}],
      ['messageRawContent', { message_id: 1 }],
      ['sendTestNotification', {}],
      ['registerApnsToken', { token: 'abcdef', appid: 'org.example.app' }],
    ] as const) {
      const r = await client.invoke(name, payload);
      expect(r.ok === false && r.error.code, name).toBe('OFFLINE');
    }
    expect(proxy.log.length).toBe(before);
    expect((await call('outboxCounts')) as OutboxCounts).toEqual({ pending: 0, failed: 0, conflict: 0 });
    await svc.close();
  });

  it('online, deleteTopic deletes the whole topic and sendInvites invites', async () => {
    const { svc, call } = await signedIn('iago');
    for (let i = 0; i < 3; i++) post(t, 'iago', 'Verona', 'doomed online', `m${i}`);
    expect(await call('deleteTopic', { channel_id: channelId(t, 'Verona'), topic: 'doomed online' })).toEqual({ ok: true });
    const left = await t.as('iago').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'doomed online' }] });
    expect(left.json.messages).toEqual([]);
    expect(await call('sendInvites', { emails: ['invited-by-outbox-test@example.com'], channel_ids: [channelId(t, 'Verona')] })).toEqual({ ok: true });
    await svc.close();
  });

  it('sendInvites passes groups, default channels, notify and the welcome text; INVITATION_FAILED comes back per address; inviteOptions marks the default channels', async () => {
    const { svc, client, call } = await signedIn('iago');
    const options = (await call('inviteOptions')) as { channels: Array<{ name: string; is_default: boolean }>; groups: Array<{ group_id: number; name: string }> };
    expect(options.channels.filter((c) => c.is_default).map((c) => c.name).sort()).toEqual(['Verona', 'general']);
    expect(options.channels.find((c) => c.name === 'Scotland')).toMatchObject({ is_default: false });
    const leads = options.groups.find((g) => g.name === 'leads');
    expect(leads).toBeDefined();
    expect(options.groups.some((g) => g.name.startsWith('role:'))).toBe(false);
    expect(
      await call('sendInvites', {
        emails: ['invite-fields@example.com'],
        channel_ids: [],
        group_ids: [leads!.group_id],
        include_realm_default_subscriptions: true,
        notify_referrer_on_join: false,
        welcome_message_custom_text: 'Welcome aboard',
        invite_expires_in_minutes: null,
      }),
    ).toEqual({ ok: true });
    const row = t.server.state.db.prepare('SELECT * FROM invites WHERE email = ?').get('invite-fields@example.com') as Record<string, unknown>;
    expect(row).toMatchObject({ group_ids: `[${leads!.group_id}]`, include_realm_default_subscriptions: 1, notify_referrer_on_join: 0, welcome_message_custom_text: 'Welcome aboard', expires_at: null });
    const partly = await client.invoke('sendInvites', { emails: ['hamlet@example.com', 'invite-partly@example.com'], channel_ids: [] });
    expect(partly.ok === false && partly.error).toMatchObject({
      code: 'SERVER',
      details: { code: 'INVITATION_FAILED', details: { errors: [['hamlet@example.com', 'Already has an account.', false]], sent_invitations: true, daily_limit_reached: false, license_limit_reached: false } },
    });
    expect(t.server.state.db.prepare('SELECT 1 FROM invites WHERE email = ?').get('invite-partly@example.com')).toBeDefined();
    await svc.close();
  });

  it('createUser: the new id from an owner allowed to; refusals in the server’s words (email in use, an administrator not allowed, a member)', async () => {
    const owner = await signedIn('desdemona');
    const made = (await owner.call('createUser', { email: 'made-by-service@example.com', password: 'a-long-password', full_name: 'Made By Service' })) as { user_id: number };
    expect(made.user_id).toBe(t.userId('made-by-service'));
    const again = await owner.client.invoke('createUser', { email: 'made-by-service@example.com', password: 'a-long-password', full_name: 'Again' });
    expect(again.ok === false && again.error).toMatchObject({ code: 'SERVER', message: 'Email is already in use.' });
    await owner.svc.close();
    proxy.close();
    const admin = await signedIn('iago');
    const notAllowed = await admin.client.invoke('createUser', { email: 'by-iago@example.com', password: 'a-long-password', full_name: 'By Iago' });
    expect(notAllowed.ok === false && notAllowed.error).toMatchObject({ code: 'SERVER', message: 'User not authorized to create users' });
    await admin.svc.close();
    proxy.close();
    const member = await signedIn('hamlet');
    const denied = await member.client.invoke('createUser', { email: 'by-hamlet@example.com', password: 'a-long-password', full_name: 'By Hamlet' });
    expect(denied.ok === false && denied.error).toMatchObject({ code: 'SERVER', message: 'Must be an organization administrator' });
    await member.svc.close();
  });

  it('online, push registration and the test notification reach the server (its refusal comes back with its code)', async () => {
    const { svc, client, call } = await signedIn('iago');
    const none = await client.invoke('sendTestNotification', {});
    expect(none.ok === false && none.error).toMatchObject({ code: 'SERVER', details: { code: 'NO_ACTIVE_PUSH_DEVICE' } });
    expect(await call('registerApnsToken', { token: 'abcdef0123', appid: 'org.example.app' })).toEqual({ ok: true });
    await svc.close();
  });
});
