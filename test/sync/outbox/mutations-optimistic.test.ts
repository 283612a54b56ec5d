/**
 * The optimistic local effects of mark_topic_as_read, subscribe and the user group kinds, on a
 * cache filled from the reference server through `sync/api` (the other kinds check theirs end to end).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getMessages, getStreams, getUserGroups } from '../../../sync/api/index.js';
import { getChannel, putChannel } from '../../../sync/db/queries/channels.js';
import { getUserGroup, putUserGroup } from '../../../sync/db/queries/groups.js';
import { upsertMessages } from '../../../sync/db/queries/messages.js';
import { unreadCounts } from '../../../sync/db/queries/topics.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as markRead from '../../../sync/outbox/mutations/mark-topic-read.js';
import * as subscribe from '../../../sync/outbox/mutations/subscription-set.js';
import * as groupMembers from '../../../sync/outbox/mutations/user-group-members.js';
import * as groupUpdate from '../../../sync/outbox/mutations/user-group-update.js';
import { personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

describe('optimistic local effects', () => {
  it('mark_topic_as_read clears the topic unread count at once', async () => {
    const stream = (await getStreams(env.conn)).streams[0]?.stream_id ?? -1;
    for (let i = 0; i < 2; i++) await env.t.as('hamlet').post('/messages', { type: 'stream', to: stream, topic: 'Local', content: `m${i}` });
    const changes = new ChangeCollector();
    const { messages } = await getMessages(env.conn, { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: stream }, { operator: 'topic', operand: 'Local' }] });
    upsertMessages(env.db, messages, changes);
    const count = () => unreadCounts(env.db).topics.find((t) => t.channel_id === stream && t.topic.toLowerCase() === 'local')?.count ?? 0;
    expect(count()).toBe(2);
    const after = new ChangeCollector();
    markRead.applyOptimistic(env.db, { stream_id: stream, topic_name: 'local' }, after);
    expect(count()).toBe(0);
    expect(after.updated.size).toBe(2);
    expect(after.areas.has('unread')).toBe(true);
  });

  it('subscribe subscribes a known channel locally; an unknown name waits for the server', async () => {
    const all = (await getStreams(env.conn, { include_all: true })).streams;
    const c = all[0];
    if (!c) throw new Error('no channels');
    putChannel(env.db, c);
    const changes = new ChangeCollector();
    subscribe.applyOptimistic(env.db, { subscriptions: [{ name: c.name }, { name: 'not yet created' }] }, changes);
    expect(getChannel(env.db, c.stream_id)?.subscription).toMatchObject({ stream_id: c.stream_id, is_muted: false });
    expect(changes.areas.has('subscriptions')).toBe(true);
  });

  it('user group update and membership change the cached group', async () => {
    const g = (await getUserGroups(env.conn)).user_groups.find((x) => x.name === 'leads');
    if (!g) throw new Error('no leads group');
    putUserGroup(env.db, g);
    const changes = new ChangeCollector();
    const [kept, removed] = g.members;
    groupUpdate.applyOptimistic(env.db, { user_group_id: g.id, description: 'local' }, changes);
    groupMembers.applyOptimistic(env.db, { user_group_id: g.id, add: [999], delete: removed === undefined ? [] : [removed] }, changes);
    expect(getUserGroup(env.db, g.id)).toMatchObject({ name: 'leads', description: 'local', members: [kept, 999] });
    expect(changes.areas.has('user_groups')).toBe(true);
  });
});
