/**
 * Presence and user status (OpenAPI update-presence, get-presence, get-user-presence, update-status;
 * Zulip's zerver/actions/presence.py and user_status.py): the modern format with
 * `presence_last_update_id`, register's `presences` and `user_status`, events to others only when
 * what they show changes, and `presence_enabled` off hiding the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { openQueue } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const now = () => Math.floor(t.clock.now() / 1000);

describe('POST /users/me/presence', () => {
  it('records the report, answers the realm in the modern format from last_update_id, and tells others on a change', async () => {
    const q = openQueue(t, 'hamlet', { capabilities: { simplified_presence_events: true } });
    const legacyQ = openQueue(t, 'cordelia');
    const first = await t.as('iago').post('/users/me/presence', { status: 'active', last_update_id: -1, new_user_input: true });
    expect(first.json).toMatchObject({ result: 'success', presences: { [t.userId('iago')]: { active_timestamp: now(), idle_timestamp: now() } } });
    expect(first.json.ignored_parameters_unsupported).toBeUndefined();
    const lastId = first.json.presence_last_update_id as number;
    expect(lastId).toBeGreaterThanOrEqual(0);
    expect(await q.ofType('presence')).toEqual([expect.objectContaining({ presences: { [t.userId('iago')]: { active_timestamp: now(), idle_timestamp: now() } } })]);
    expect((await legacyQ.ofType('presence'))[0]).toMatchObject({ user_id: t.userId('iago'), presence: { website: { status: 'active', timestamp: now() } } });

    // Nothing newer: an empty answer with the same id; a repeated ping changes nothing others see.
    t.clock.advance(10_000);
    const again = await t.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: lastId, ping_only: false });
    expect(Object.keys(again.json.presences as object)).toEqual([String(t.userId('hamlet'))]);
    t.clock.advance(10_000);
    await t.as('iago').post('/users/me/presence', { status: 'active', ping_only: true });
    expect((await q.ofType('presence')).filter((e) => String(t.userId('iago')) in (e['presences'] as object))).toHaveLength(1);

    // Idle after the offline threshold of inactivity: active_timestamp stays, others hear of it.
    t.clock.advance(150_000);
    await t.as('iago').post('/users/me/presence', { status: 'idle', ping_only: true });
    const idle = (await q.ofType('presence')).at(-1)!;
    expect(idle['presences']).toEqual({ [t.userId('iago')]: { active_timestamp: now() - 150, idle_timestamp: now() } });

    const reg = await t.as('othello').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    expect(reg.json.presences).toMatchObject({ [t.userId('iago')]: { active_timestamp: now() - 150, idle_timestamp: now() } });
    expect(reg.json.presence_last_update_id).toBeGreaterThan(lastId);
    const realm = await t.as('othello').get('/realm/presence');
    expect(realm.json.presences).toMatchObject({ [t.as('iago').email]: { aggregated: { status: 'idle' } } });
    expect((await t.as('othello').get(`/users/${t.userId('iago')}/presence`)).json.presence).toMatchObject({ aggregated: { status: 'idle' } });
  });

  it('an invalid status is refused; presence_enabled off hides the user', async () => {
    expect((await t.as('iago').post('/users/me/presence', { status: 'away' })).status).toBe(400);
    await t.as('desdemona').patch('/settings', { presence_enabled: false });
    const q = openQueue(t, 'hamlet', { capabilities: { simplified_presence_events: true } });
    await t.as('desdemona').post('/users/me/presence', { status: 'active', ping_only: true });
    expect(await q.ofType('presence')).toEqual([]);
    const reg = await t.as('hamlet').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    expect(reg.json.presences).not.toHaveProperty(String(t.userId('desdemona')));
  });
});

describe('POST /users/me/status', () => {
  it('changes only what is passed, in register and as an event; the empty string clears', async () => {
    const q = openQueue(t, 'hamlet');
    await t.as('iago').post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect((await q.ofType('user_status'))[0]).toMatchObject({ user_id: t.userId('iago'), status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697' });
    await t.as('iago').post('/users/me/status', { status_text: '' });
    const reg = await t.as('hamlet').post('/register', { fetch_event_types: ['user_status'] });
    expect(reg.json.user_status).toEqual({ [t.userId('iago')]: { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' } });
    expect((await t.as('iago').post('/users/me/status', { status_text: 'x'.repeat(61) })).status).toBe(400);
    expect((await t.as('iago').post('/users/me/status', {})).status).toBe(400);
  });
});
