/**
 * Several organisations at once (docs/sync-design.md "Several organisations"): every signed-in
 * account stays open and syncs; one is shown. Two reference servers, each through a fault proxy:
 * with one stopped, the other still syncs, notifies with its account id, counts its unread for the
 * bar and drains its outbox while it is not shown. The order, the shown one and the open sessions
 * come back after a restart.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import type { EngineEvent, RpcResult } from '../../../sync/protocol/index.js';
import type { Organisation } from '../../../sync/protocol/accounts.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

let alpha: TestServer;
let beta: TestServer;
let alphaProxy: FaultProxy;
let betaProxy: FaultProxy;
beforeAll(async () => {
  alpha = await startTestServer({ config: { realmName: 'Alpha' } });
  beta = await startTestServer({ config: { realmName: 'Beta' } });
  alphaProxy = await FaultProxy.start(alpha.url, { maxStallMs: 2_000 });
  betaProxy = await FaultProxy.start(beta.url, { maxStallMs: 2_000 });
});
afterAll(async () => {
  await alphaProxy.close();
  await betaProxy.close();
  await alpha.close();
  await beta.close();
});

const seams = { logger: silentEngineLogger, sleep: quickSleep };

describe('several organisations at once', () => {
  it('both stay open; with one stopped, the other syncs, notifies, counts unread and drains its outbox while not shown', async () => {
    const dir = tempDir();
    const secrets = new MemorySecretStore();
    const svc = new EngineService({ dataDir: dir.dir, secrets, seams, timeoutMs: 3_000 });
    const events: EngineEvent[] = [];
    const client = svc.connect((e) => events.push(e));
    const call = async (name: string, payload: unknown = {}): Promise<unknown> => {
      const r: RpcResult = await client.invoke(name, payload);
      if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
      return r.value;
    };
    const signIn = async (url: string) => ((await call('signIn', { realm_url: url, email: 'hamlet@example.com', credentials: { password: 'sandbox' } })) as { id: string }).id;
    const orgs = async () => (await call('organisations')) as Organisation[];

    const a = await signIn(alphaProxy.url);
    await until(() => svc.sessionOf(a)?.status.state === 'live', 10_000, 'alpha live');
    const alphaSession = svc.sessionOf(a);
    const b = await signIn(betaProxy.url);
    await until(() => svc.sessionOf(b)?.status.state === 'live', 10_000, 'beta live');
    // Signing in to the second did not sign the first out: its session is the same one, still live.
    expect(svc.sessionOf(a)).toBe(alphaSession);
    expect(svc.sessionOf(a)?.status.state).toBe('live');
    expect(await call('accounts')).toMatchObject({ active: b, accounts: [{ id: a }, { id: b }] });
    expect((await orgs()).map((o) => [o.id, o.name, o.connection])).toEqual([
      [a, 'Alpha', 'live'],
      [b, 'Beta', 'live'],
    ]);

    // Switching shows the other without closing anything.
    const betaSession = svc.sessionOf(b);
    await call('switchAccount', { id: a });
    expect(svc.activeSession).toBe(alphaSession);
    expect(svc.sessionOf(b)).toBe(betaSession);
    expect(((await call('channels')) as unknown[]).length).toBeGreaterThan(0);

    // Beta, shown, queues a message while its server cannot be reached; then Alpha is shown.
    await call('switchAccount', { id: b });
    await betaProxy.pause();
    await until(() => svc.sessionOf(b)?.status.state !== 'live', 10_000, 'beta offline');
    const verona = ((await call('channels')) as Array<{ channel_id: number; name: string }>).find((c) => c.name === 'Verona')!.channel_id;
    await call('sendMessage', { to: { type: 'channel', channel_id: verona, topic: 'orgs' }, content: 'queued while beta was away' });
    expect(svc.sessionOf(b)?.outbox.counts().pending).toBe(1);
    await call('switchAccount', { id: a });
    expect((await orgs()).find((o) => o.id === b)?.connection).not.toBe('live');

    // Alpha's server stops; Beta's comes back while Alpha is shown: Beta's outbox drains.
    await alphaProxy.pause();
    await until(() => svc.sessionOf(a)?.status.state !== 'live', 10_000, 'alpha offline');
    await betaProxy.resume();
    await until(() => svc.sessionOf(b)?.outbox.counts().pending === 0, 15_000, 'beta drained');
    const landed = await beta.as('iago').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'orgs' }] });
    expect((landed.json.messages as Array<{ content: string }>).map((m) => m.content)).toContain('queued while beta was away');
    await until(() => svc.sessionOf(b)?.status.state === 'live', 10_000, 'beta live again');

    // A DM on Beta while Alpha is shown and offline: Beta notifies with its id and its count rises.
    const before = (await orgs()).find((o) => o.id === b)!.unread;
    const dm = await beta.as('othello').post('/messages', { type: 'private', to: JSON.stringify([beta.userId('hamlet')]), content: 'Beta calls, my lord' });
    const dmId = dm.json.id as number;
    await until(() => events.some((e) => e.type === 'notifications' && e.account_id === b && e.items.some((i) => i.message_id === dmId)), 10_000, 'beta notified');
    const after = await orgs();
    expect(after.find((o) => o.id === b)).toMatchObject({ connection: 'live', unread: before + 1 });
    expect(after.find((o) => o.id === a)?.connection).toBe('offline');
    expect(events.some((e) => e.type === 'areas' && e.areas.includes('organisations'))).toBe(true);
    // The page's status is the shown account's: Alpha, offline.
    expect(await call('status')).toMatchObject({ state: 'offline' });

    // The order is the person's, kept in the accounts file.
    await call('reorderAccounts', { ids: [b, a] });
    expect((await orgs()).map((o) => o.id)).toEqual([b, a]);
    expect((JSON.parse(readFileSync(path.join(dir.dir, 'accounts.json'), 'utf8')) as { accounts: Array<{ id: string }> }).accounts.map((x) => x.id)).toEqual([b, a]);

    // New network settings reconnect every open account, not only the shown one; Alpha stays shown.
    const [oldA, oldB] = [svc.sessionOf(a), svc.sessionOf(b)];
    await call('setNetworkSettings', await call('networkSettings'));
    expect(svc.sessionOf(a)).not.toBe(oldA);
    expect(svc.sessionOf(b)).not.toBe(oldB);
    expect(svc.activeSession).toBe(svc.sessionOf(a));
    await until(() => svc.sessionOf(b)?.status.state === 'live', 10_000, 'beta live after reconnecting');
    await alphaProxy.resume();
    await svc.close();

    // After a restart both open again, the shown one is shown again, the order kept. The shown
    // one opens first: restore() returns with it shown, before the other has opened.
    const again = new EngineService({ dataDir: dir.dir, secrets, seams, timeoutMs: 3_000 });
    await again.restore();
    expect(again.activeSession).toBe(again.sessionOf(a));
    expect(again.sessionOf(a)).toBeDefined();
    expect(again.sessionOf(b)).toBeUndefined();
    await again.restored;
    expect(again.sessionOf(b)).toBeDefined();
    expect(again.activeSession).toBe(again.sessionOf(a));
    const c2 = again.connect(() => undefined);
    const o2 = await c2.invoke('organisations', {});
    expect(o2.ok && (o2.value as Organisation[]).map((o) => o.id)).toEqual([b, a]);

    // Signing out of the shown one closes only it and shows the other.
    expect(await c2.invoke('signOut', { id: a, queued: 'discard' })).toMatchObject({ ok: true });
    expect(again.sessionOf(a)).toBeUndefined();
    expect(again.activeSession).toBe(again.sessionOf(b));
    expect(await c2.invoke('accounts', {})).toMatchObject({ ok: true, value: { active: b, accounts: [{ id: b }] } });
    await again.close();
    dir.cleanup();
  });
});
