/**
 * The account part of PATCH /settings through the engine service (`updateAccount`): online only,
 * so a password never rests on the device. Offline it fails at once with OFFLINE, sends nothing and
 * writes no outbox row; online the name lands (and the engine's users follow), a wrong old password
 * comes back in the server's words, a right one changes it, and an email change only starts the
 * server's confirmation.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxCounts, OutboxRowView } from '../../../sync/protocol/index.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

async function fetchKey(email: string, password: string) {
  return (await t.raw('POST', '/fetch_api_key', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: email, password }).toString() })).json;
}

describe('updateAccount', () => {
  it('offline: OFFLINE at once, nothing sent, nothing queued, the password nowhere in the database', async () => {
    const { svc, invoke, call } = await signedIn('othello');
    await proxy.pause();
    await until(() => svc.activeSession?.status.state === 'offline', 10_000, 'offline');
    const before = proxy.log.length;
    for (const payload of [{ old_password: 'sandbox', new_password: 'secret-on-a-train' }, { full_name: 'Othello the Moor' }, { email: 'moor@example.com' }]) {
      const r = await invoke('updateAccount', payload);
      expect(r.ok === false && r.error.code, JSON.stringify(payload)).toBe('OFFLINE');
    }
    expect(proxy.log.length).toBe(before);
    expect((await call('outboxCounts')) as OutboxCounts).toEqual({ pending: 0, failed: 0, conflict: 0 });
    expect((await call('outbox', { include_finished: true })) as OutboxRowView[]).toEqual([]);
    const db = svc.activeSession!.db;
    const rows = db.prepare('SELECT * FROM outbox').all();
    expect(JSON.stringify(rows)).not.toContain('secret-on-a-train');
    // The queued settings command refuses passwords too (they would rest in the outbox).
    const queued = await invoke('updateSettings', { settings: { old_password: 'sandbox', new_password: 'secret-on-a-train' } });
    expect(queued.ok === false && queued.error.code).toBe('INVALID_REQUEST');
    await svc.close();
  });

  it('refuses a request with nothing to change, or one password without the other', async () => {
    const { svc, invoke } = await signedIn('othello');
    for (const payload of [{}, { old_password: 'sandbox' }, { new_password: 'x-123456789' }, { full_name: '   ' }]) {
      const r = await invoke('updateAccount', payload);
      expect(r.ok === false && r.error.code, JSON.stringify(payload)).toBe('INVALID_REQUEST');
    }
    await svc.close();
  });

  it('online: the name lands and the engine follows; passwords in the server words; an email change starts a confirmation', async () => {
    const { svc, invoke, call } = await signedIn('hamlet');
    expect(await call('updateAccount', { full_name: 'Prince Hamlet' })).toEqual({ ok: true });
    const me = (await t.as('hamlet').get('/users/me')).json as { full_name: string; user_id: number };
    expect(me.full_name).toBe('Prince Hamlet');
    await until(() => svc.activeSession?.queries.users().some((u) => u.user_id === me.user_id && u.full_name === 'Prince Hamlet') === true, 10_000, 'name followed');

    const wrong = await invoke('updateAccount', { old_password: 'not-it', new_password: 'a-much-longer-one' });
    expect(wrong.ok === false && wrong.error).toMatchObject({ code: 'SERVER', message: 'Wrong password!' });
    expect(await call('updateAccount', { old_password: 'sandbox', new_password: 'a-much-longer-one' })).toEqual({ ok: true });
    expect((await fetchKey('hamlet@example.com', 'a-much-longer-one')).result).toBe('success');
    expect((await fetchKey('hamlet@example.com', 'sandbox')).result).toBe('error');
    // Put it back for the other tests of this server.
    expect(await call('updateAccount', { old_password: 'a-much-longer-one', new_password: 'sandbox' })).toEqual({ ok: true });

    const taken = await invoke('updateAccount', { email: 'othello@example.com' });
    expect(taken.ok === false && taken.error).toMatchObject({ code: 'SERVER', message: 'Email is already in use.' });
    expect(await call('updateAccount', { email: 'prince@example.com' })).toEqual({ ok: true });
    // Only a confirmation started: the address is unchanged until it is confirmed.
    expect(((await t.as('hamlet').get('/users/me')).json as { email: string }).email).toBe('hamlet@example.com');
    expect((await call('outbox', { include_finished: true })) as OutboxRowView[]).toEqual([]);
    await svc.close();
  });
});
