/**
 * `mute_user` against the reference server: shown locally at once, a later choice for the same
 * person supersedes the queued one, a lost answer verified by reading the list back (never sent
 * twice), and a change that is already true on the server ("User already muted") counts as done.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as mute from '../../../sync/outbox/mutations/user-mute.js';
import { describeRow } from '../../../sync/outbox/registry.js';
import { applyEvents } from '../../../sync/engine/handlers/index.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

const KIND = 'mute_user';
const PATH = /^(POST|DELETE) \/api\/v1\/users\/me\/muted_users\//;
const serverList = async () => ((await env.t.as('iago').post('/register', { fetch_event_types: ['muted_users'] })).json.muted_users as Array<{ id: number }>).map((m) => m.id);
const localList = () => mute.storedMutedUsers(env.db).map((m) => m.id);

describe('mute_user', () => {
  it('applies locally at once; a later choice for the same person supersedes the queued one; each person one request', async () => {
    const [cordelia, hamlet] = [env.t.userId('cordelia'), env.t.userId('hamlet')];
    const changes = new ChangeCollector();
    for (const a of [
      { user_id: cordelia, muted: true },
      { user_id: hamlet, muted: true },
      { user_id: hamlet, muted: false },
      { user_id: hamlet, muted: true },
    ]) {
      env.store.enqueue(kindOf(env.store, KIND), a, null);
      mute.applyOptimistic(env.db, a, changes);
    }
    expect(changes.areas.has('muted_users')).toBe(true);
    expect(localList()).toEqual([cordelia, hamlet]);
    expect(env.store.all().map((r) => r.args)).toEqual([
      { user_id: cordelia, muted: true },
      { user_id: hamlet, muted: true },
    ]);
    await env.drain();
    expect(env.requests(PATH)).toBe(2);
    expect(env.store.all().every((r) => r.state === 'done')).toBe(true);
    expect((await serverList()).sort()).toEqual([cordelia, hamlet].sort());

    // The server's event replaces the local list; unmuting one goes the same way.
    env.store.enqueue(kindOf(env.store, KIND), { user_id: cordelia, muted: false }, null);
    await env.drain();
    expect(await serverList()).toEqual([hamlet]);
    applyEvents(env.db, [{ type: 'muted_users', id: 1, muted_users: [{ id: hamlet, timestamp: 1 }] }], { selfUserId: env.t.userId('iago') }, new ChangeCollector());
    expect(localList()).toEqual([hamlet]);
  });

  it('a lost answer is verified by reading the list back: applied once, not resent', async () => {
    const othello = env.t.userId('othello');
    env.proxy.rule({ method: 'POST', path: `/api/v1/users/me/muted_users/${othello}` }, { kind: 'drop' }, 1);
    env.store.enqueue(kindOf(env.store, KIND), { user_id: othello, muted: true }, null);
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    expect(env.requests(PATH)).toBe(1);
    expect(env.store.all()[0]?.state).toBe('done');
    expect(await serverList()).toContain(othello);
  });

  it('already true on the server (muted elsewhere) counts as done; an unknown person fails', async () => {
    const polonius = env.t.userId('polonius');
    expect((await env.t.as('iago').post(`/users/me/muted_users/${polonius}`)).status).toBe(200);
    env.store.enqueue(kindOf(env.store, KIND), { user_id: polonius, muted: true }, null);
    env.store.enqueue(kindOf(env.store, KIND), { user_id: 999_999, muted: true }, null);
    await env.drain();
    const [known, unknown] = env.store.all();
    expect(known?.state).toBe('done');
    expect(unknown?.state).toBe('failed');
    expect(JSON.stringify(unknown?.lastError)).toContain('No such user');
  });

  it('is described in words', () => {
    const names = { channel: () => undefined, user: (id: number) => (id === 9 ? 'Cordelia' : undefined), group: () => undefined };
    expect(describeRow(KIND, { user_id: 9, muted: true }, names).text).toBe('Mute Cordelia');
    expect(describeRow(KIND, { user_id: 8, muted: false }, names).text).toBe('Unmute a user');
  });
});
