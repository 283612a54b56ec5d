/** Topic preferences, user settings and navigation views end to end against the reference server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getNavigationViews, getTopicVisibility, getUserSettings } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as navAdd from '../../../sync/outbox/mutations/navigation-view-add.js';
import * as navEdit from '../../../sync/outbox/mutations/navigation-view-edit.js';
import * as settings from '../../../sync/outbox/mutations/user-settings-update.js';
import * as userTopic from '../../../sync/outbox/mutations/user-topic-set.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

async function aChannelId(): Promise<number> {
  const r = await env.t.as('iago').get('/users/me/subscriptions');
  const subs = r.json.subscriptions as Array<{ stream_id: number }>;
  const id = subs[0]?.stream_id;
  if (id === undefined) throw new Error('iago has no subscriptions');
  return id;
}
async function serverPolicy(streamId: number, topic: string): Promise<number> {
  const r = await env.t.as('iago').post('/register', { fetch_event_types: ['user_topic'] });
  const list = r.json.user_topics as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>;
  return list.find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
}
async function serverSettings(): Promise<Record<string, unknown>> {
  const r = await env.t.as('iago').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
  return r.json.user_settings as Record<string, unknown>;
}
async function serverViews(): Promise<Array<{ fragment: string; is_pinned: boolean; name: string | null }>> {
  return (await env.t.as('iago').get('/navigation_views')).json.navigation_views as Array<{ fragment: string; is_pinned: boolean; name: string | null }>;
}

describe('update_user_topic', () => {
  it('toggles while queued send only the last value, shown locally at once', async () => {
    const stream = await aChannelId();
    const changes = new ChangeCollector();
    for (const policy of [1, 3, 2, 1] as const) {
      const args = { stream_id: stream, topic: 'Lunch', visibility_policy: policy };
      env.store.enqueue(kindOf(env.store, 'update_user_topic'), args, null);
      userTopic.applyOptimistic(env.db, args, changes);
    }
    expect(getTopicVisibility(env.db, stream, 'Lunch')).toBe(1);
    expect(env.store.all()).toHaveLength(1);
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/user_topics/)).toBe(1);
    expect(await serverPolicy(stream, 'lunch')).toBe(1);
  });

  it('a lost answer is verified by reading the preferences: applied once, not resent', async () => {
    const stream = await aChannelId();
    env.proxy.rule({ method: 'POST', path: '/api/v1/user_topics' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'update_user_topic'), { stream_id: stream, topic: 'dropped', visibility_policy: 3 }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/user_topics/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await serverPolicy(stream, 'dropped')).toBe(3);
  });
});

describe('update_settings', () => {
  it('queued updates merge, last value per key wins, one request', async () => {
    const changes = new ChangeCollector();
    const updates: Record<string, string | boolean>[] = [{ enter_sends: true, twenty_four_hour_time: true }, { emojiset: 'text' }, { twenty_four_hour_time: false }];
    for (const u of updates) {
      env.store.enqueue(kindOf(env.store, 'update_settings'), u, null);
      settings.applyOptimistic(env.db, u, changes);
    }
    expect(getUserSettings(env.db)).toEqual({ enter_sends: true, twenty_four_hour_time: false, emojiset: 'text' });
    expect(env.store.all()[0]?.args).toEqual({ enter_sends: true, twenty_four_hour_time: false, emojiset: 'text' });
    await env.drain();
    expect(env.requests(/^PATCH \/api\/v1\/settings/)).toBe(1);
    expect(await serverSettings()).toMatchObject({ enter_sends: true, twenty_four_hour_time: false, emojiset: 'text' });
  });

  it('a lost answer is verified by reading the settings', async () => {
    env.proxy.rule({ method: 'PATCH', path: '/api/v1/settings' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'update_settings'), { emojiset: 'text' }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^PATCH \/api\/v1\/settings/)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect((await serverSettings())['emojiset']).toBe('text');
  });

  it('never queues a password', () => {
    expect(() => env.store.enqueue(kindOf(env.store, 'update_settings'), { old_password: 'a', new_password: 'b' }, null)).toThrow(/never queued/);
  });
});

describe('navigation views', () => {
  it('add then edit folds into one add; edit and delete by fragment', async () => {
    const changes = new ChangeCollector();
    const add = { fragment: 'narrow/is/starred', is_pinned: false, name: null };
    env.store.enqueue(kindOf(env.store, 'add_navigation_view'), add, null);
    navAdd.applyOptimistic(env.db, add, changes);
    env.store.enqueue(kindOf(env.store, 'edit_navigation_view'), { fragment: 'narrow/is/starred', is_pinned: true }, null);
    navEdit.applyOptimistic(env.db, { fragment: 'narrow/is/starred', is_pinned: true }, changes);
    expect(getNavigationViews(env.db)).toEqual([{ fragment: 'narrow/is/starred', is_pinned: true, name: null }]);
    await env.drain();
    expect(env.requests(/^POST \/api\/v1\/navigation_views/)).toBe(1);
    expect(env.requests(/^PATCH /)).toBe(0);
    expect((await serverViews()).find((v) => v.fragment === 'narrow/is/starred')).toMatchObject({ is_pinned: true });

    env.store.enqueue(kindOf(env.store, 'add_navigation_view'), { fragment: 'narrow/channel/1-x', is_pinned: true, name: 'Mine' }, null);
    await env.drain();
    env.store.enqueue(kindOf(env.store, 'edit_navigation_view'), { fragment: 'narrow/channel/1-x', name: 'Renamed' }, null);
    await env.drain();
    expect((await serverViews()).find((v) => v.fragment === 'narrow/channel/1-x')).toMatchObject({ name: 'Renamed', is_pinned: true });
    env.store.enqueue(kindOf(env.store, 'remove_navigation_view'), { fragment: 'narrow/channel/1-x' }, null);
    await env.drain();
    expect((await serverViews()).some((v) => v.fragment === 'narrow/channel/1-x')).toBe(false);
    expect(env.store.all().every((r) => r.state === 'done')).toBe(true);
  });

  it('add-then-delete sends nothing; a lost add is verified by listing', async () => {
    env.store.enqueue(kindOf(env.store, 'add_navigation_view'), { fragment: 'narrow/channel/9-y', is_pinned: true, name: 'Tmp' }, null);
    expect(env.store.enqueue(kindOf(env.store, 'remove_navigation_view'), { fragment: 'narrow/channel/9-y' }, null).outcome).toBe('cancelled');
    await env.drain();
    expect(env.proxy.log).toHaveLength(0);

    env.proxy.rule({ method: 'POST', path: '/api/v1/navigation_views' }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, 'add_navigation_view'), { fragment: 'narrow/channel/2-z', is_pinned: false, name: 'Once' }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(/^POST \/api\/v1\/navigation_views/)).toBe(1);
    expect((await serverViews()).filter((v) => v.fragment === 'narrow/channel/2-z')).toHaveLength(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['discarded', 'done']);
  });
});
