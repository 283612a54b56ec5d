/** The example data is what the wire and the contract carry: sync/api and sync/protocol parse every builder's output unchanged. */
import { describe, expect, it } from 'vitest';
import { basicChannel, message, parseEvent, registerResponse, subscription, user } from '../../sync/api/index.js';
import { getChannels, getSubscribedChannels } from '../../sync/db/queries/channels.js';
import { getStoredMessages } from '../../sync/db/queries/messages.js';
import { getAccount } from '../../sync/db/queries/state.js';
import { getUsers } from '../../sync/db/queries/users.js';
import { channelSummarySchema, localMessageSchema, narrowSnapshotSchema, outboxRowSchema, topicSummarySchema } from '../../sync/protocol/index.js';
import * as eg from './eg.js';
import { insertOutboxRow, localStore } from './eg-store.js';

describe('API shapes', () => {
  it('users, channels and subscriptions parse as they are', () => {
    for (const u of eg.users()) expect(user.parse(u)).toEqual(u);
    expect(eg.user({ user_id: 12 })).toMatchObject({ user_id: 12, email: eg.cordelia.email, full_name: eg.cordelia.full_name });
    expect(eg.user({ user_id: 77 })).toMatchObject({ email: 'u77@example.com', full_name: 'User 77' });
    const c = eg.channel({ place: eg.scotland, invite_only: true });
    expect(basicChannel.parse(c)).toEqual(c);
    const s = eg.subscription({ is_muted: true });
    expect(subscription.parse(s)).toEqual(s);
    expect(s).toMatchObject({ stream_id: eg.verona.stream_id, name: 'Verona', is_muted: true });
  });

  it('channel and direct messages parse as they are; ids not given increase', () => {
    const a = eg.streamMessage();
    const b = eg.streamMessage({ channel: eg.denmark, topic: 'ghost', sender: eg.iago, flags: ['read'] });
    const d = eg.dmMessage({ participants: [eg.SELF, 12, 13] });
    for (const m of [a, b, d]) expect(message.parse(m)).toEqual(m);
    expect(b.id).toBe(a.id + 1);
    expect(d.id).toBe(b.id + 1);
    expect(b).toMatchObject({ stream_id: 6, display_recipient: 'Denmark', subject: 'ghost', sender_email: 'iago@example.com', timestamp: eg.messageTimestamp(b.id) });
    expect(d).toMatchObject({ type: 'private', subject: '', sender_id: 12 });
    expect(Array.isArray(d.display_recipient) && d.display_recipient.map((r) => r.id)).toEqual([10, 12, 13]);
    expect(eg.streamMessage({ id: 500 }).id).toBe(500);
  });

  it('events get increasing ids and parse as their type', () => {
    const start = eg.lastEvent();
    const evs = [
      eg.messageEvent(eg.streamMessage({ flags: ['read'] })),
      eg.updateMessageEvent({ message_id: 3, content: 'x', rendered_content: '<p>x</p>' }),
      eg.updateMessageFlagsEvent('add', 'starred', [3]),
      eg.subscriptionAddEvent([eg.subscription()]),
      eg.realmUserUpdateEvent({ user_id: 11, full_name: 'Othello' }),
      eg.event('heartbeat'),
    ];
    expect(evs.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6].map((i) => start + i));
    const parsed = evs.map(parseEvent);
    expect(parsed.map((e) => e.type)).toEqual(['message', 'update_message', 'update_message_flags', 'subscription', 'realm_user', 'heartbeat']);
    expect(parsed[0]).toMatchObject({ message: { flags: ['read'] } });
  });

  it('a register snapshot parses as it is', () => {
    const r = eg.registerSnapshot();
    expect(registerResponse.parse(r)).toEqual(r);
    expect(r.realm_users?.map((u) => u.full_name)).toEqual(eg.cast.map((p) => p.full_name));
  });
});

describe('contract shapes', () => {
  it('messages, snapshots, summaries and outbox rows parse as they are', () => {
    const m = eg.localMessage({ topic: 'lunch' });
    const dm = eg.localDmMessage({ participants: [eg.SELF, 11] });
    for (const x of [m, dm]) expect(localMessageSchema.parse(x)).toEqual(x);
    expect(dm).toMatchObject({ type: 'direct', channel_id: null, topic: '', dm_participants: [{ id: 10 }, { id: 11 }] });
    const snap = eg.narrowSnapshot([m, dm]);
    expect(narrowSnapshotSchema.parse(snap)).toEqual(snap);
    const t = eg.topicSummary({ unread_count: 2 });
    expect(topicSummarySchema.parse(t)).toEqual(t);
    const c = eg.channelSummary({ channel: eg.denmark, topics: [t] });
    expect(channelSummarySchema.parse(c)).toEqual(c);
    const [r1, r2] = [eg.outboxRow(), eg.outboxRow({ state: 'failed', last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'no', details: null } })];
    for (const r of [r1!, r2!]) expect(outboxRowSchema.parse(r)).toEqual(r);
    expect(r2!.outbox_id).toBe(r1!.outbox_id + 1);
  });
});

describe('the local store', () => {
  it('holds the snapshot and the messages, written as the engine writes them', () => {
    const m = eg.streamMessage();
    const db = localStore({ messages: [m], account: true });
    expect(getUsers(db).map((u) => u.user.user_id).sort()).toEqual([10, 11, 12, 13]);
    expect(getSubscribedChannels(db).map((c) => c.channel.name).sort()).toEqual(['Denmark', 'Verona']);
    expect(getChannels(db)).toHaveLength(2);
    expect(getStoredMessages(db, [m.id])).toEqual([m]);
    expect(getAccount(db)).toMatchObject({ user_id: eg.SELF, feature_level: 420 });
    const id = insertOutboxRow(db, { kind: 'update_message_flags', args: { messages: [m.id] } });
    expect(db.prepare('SELECT kind, state, args FROM outbox WHERE id = ?').get(id)).toEqual({ kind: 'update_message_flags', state: 'queued', args: `{"messages":[${m.id}]}` });
    db.close();
  });
});
