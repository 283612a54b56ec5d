/**
 * The engine service behind both hosts: payloads parsed before anything runs, closed error codes,
 * accounts (password and API-key sign-in against the reference server, the sandbox, restore after
 * a restart, sign-out), and live views pushed to the client that opened them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import type { EngineEvent } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore, SANDBOX_ACCOUNT_ID, type SandboxLauncher } from '../../../sync/service/index.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const seams = { logger: silentEngineLogger, sleep: quickSleep };

function fakeSandbox(): SandboxLauncher & { starts: (number | null)[] } {
  const starts: (number | null)[] = [];
  return {
    starts,
    start: async (preferred) => {
      starts.push(preferred);
      const port = Number(new URL(t.url).port);
      return { realmUrl: t.url, email: 'desdemona@example.com', apiKey: t.server.apiKey('desdemona@example.com'), port };
    },
    close: async () => undefined,
  };
}

function service(dataDir = ':memory:', secrets = new MemorySecretStore(), sandbox: SandboxLauncher | null = fakeSandbox()) {
  const svc = new EngineService({ dataDir, secrets, sandbox: sandbox ?? undefined, seams, timeoutMs: 5_000 });
  const events: EngineEvent[] = [];
  const client = svc.connect((e) => events.push(e));
  return { svc, client, events, secrets };
}

describe('engine service: the contract at the boundary', () => {
  it('rejects an unknown operation and an invalid payload before anything runs', async () => {
    const { svc, client } = service();
    expect(await client.invoke('dropTables', {})).toEqual({ ok: false, error: { code: 'UNKNOWN_OPERATION', message: expect.stringContaining('dropTables') } });
    const bad = await client.invoke('openNarrow', { narrow: 'channel:general', anchor: 'newest', before: 10, after: 0 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('INVALID_REQUEST');
    const tooMany = await client.invoke('loadOlder', { view_id: 'x', count: 1_000_000 });
    expect(tooMany.ok === false && tooMany.error.code).toBe('INVALID_REQUEST');
    await svc.close();
  });

  it('answers NO_ACCOUNT for account operations before any account is open', async () => {
    const { svc, client } = service();
    const r = await client.invoke('channels', {});
    expect(r.ok === false && r.error.code).toBe('NO_ACCOUNT');
    const s = await client.invoke('accounts', {});
    expect(s).toEqual({ ok: true, value: { accounts: [], active: null, secret_storage: 'encrypted', sandbox_available: true } });
    await svc.close();
  });
});

describe('engine service: accounts', () => {
  it('signs in with a password, stores the key only in the secret store, and reads the account', async () => {
    const tmp = tempDir();
    const { svc, client, events, secrets } = service(tmp.dir);
    const r = await client.invoke('signIn', { realm_url: `${t.url}/`, email: 'hamlet@example.com', credentials: { password: 'sandbox' } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const acct = r.value as { id: string; realm_url: string; kind: string };
    expect(acct).toMatchObject({ realm_url: t.url, email: 'hamlet@example.com', kind: 'server' });
    expect(secrets.get(acct.id)).toBe(t.server.apiKey('hamlet@example.com'));
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
    expect(events.some((e) => e.type === 'status' && e.status.state === 'live')).toBe(true);
    const ch = await client.invoke('channels', {});
    expect(ch.ok && (ch.value as { name: string }[]).map((c) => c.name)).toContain('general');
    // No API key in anything the page can read, nor in the accounts file.
    const state = await client.invoke('accounts', {});
    expect(JSON.stringify(state)).not.toContain(t.server.apiKey('hamlet@example.com'));
    await svc.close();
    tmp.cleanup();
  });

  it('refuses a wrong password with the server code and keeps nothing', async () => {
    const { svc, client, secrets } = service();
    const r = await client.invoke('signIn', { realm_url: t.url, email: 'hamlet@example.com', credentials: { password: 'nope' } });
    expect(r.ok === false && r.error.code).toBe('SERVER');
    expect((await client.invoke('accounts', {})).ok && (await svc.connect(() => undefined).invoke('accounts', {}))).toMatchObject({ value: { accounts: [] } });
    expect(secrets.get('x')).toBeUndefined();
    await svc.close();
  });

  it('needs consent before keeping a key unencrypted, and asks before touching the network', async () => {
    const { svc, client, secrets } = service(':memory:', new MemorySecretStore('plain'));
    const r = await client.invoke('signIn', { realm_url: 'http://127.0.0.1:1', email: 'hamlet@example.com', credentials: { api_key: 'k' } });
    expect(r.ok === false && r.error.code).toBe('PLAIN_STORAGE_CONSENT_REQUIRED');
    const ok = await client.invoke('signIn', { realm_url: t.url, email: 'hamlet@example.com', credentials: { api_key: t.server.apiKey('hamlet@example.com') }, allow_plain_storage: true });
    expect(ok.ok).toBe(true);
    expect(secrets.storage).toBe('plain');
    await svc.close();
  });

  it('rejects an API key the server does not accept', async () => {
    const { svc, client } = service();
    const r = await client.invoke('signIn', { realm_url: t.url, email: 'hamlet@example.com', credentials: { api_key: 'wrong' } });
    expect(r.ok === false && r.error.code).toBe('SERVER');
    expect(svc.activeSession).toBeUndefined();
    await svc.close();
  });

  it('says OFFLINE when the server cannot be reached', async () => {
    const { svc, client } = service();
    const r = await client.invoke('signIn', { realm_url: 'http://127.0.0.1:9', email: 'hamlet@example.com', credentials: { password: 'x' } });
    expect(r.ok === false && r.error.code).toBe('OFFLINE');
    await svc.close();
  });

  it('opens the sandbox, reopens it after a restart with the remembered port, and signs out deleting the data', async () => {
    const tmp = tempDir();
    const sandbox = fakeSandbox();
    const first = service(tmp.dir, new MemorySecretStore(), sandbox);
    const r = await first.client.invoke('openSandbox', {});
    expect(r).toMatchObject({ ok: true, value: { id: SANDBOX_ACCOUNT_ID, kind: 'sandbox', email: 'desdemona@example.com' } });
    await until(() => first.svc.activeSession?.status.state === 'live', 10_000, 'live');
    await first.svc.close();
    expect(existsSync(`${tmp.dir}/sandbox.sqlite`)).toBe(true);

    const second = service(tmp.dir, new MemorySecretStore(), sandbox);
    await second.svc.restore();
    expect(sandbox.starts).toEqual([null, Number(new URL(t.url).port)]);
    expect((await second.client.invoke('accounts', {})).ok && second.svc.activeSession?.queries.channels().length).toBeGreaterThan(0);
    expect(await second.client.invoke('signOut', { id: SANDBOX_ACCOUNT_ID })).toEqual({ ok: true, value: { ok: true, kept: false } });
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('sandbox.sqlite'))).toEqual([]);
    expect((await second.client.invoke('accounts', {})).ok).toBe(true);
    await second.svc.close();
    tmp.cleanup();
  });

  it('a host without a sandbox says UNAVAILABLE', async () => {
    const { svc, client } = service(':memory:', new MemorySecretStore(), null);
    const r = await client.invoke('openSandbox', {});
    expect(r.ok === false && r.error.code).toBe('UNAVAILABLE');
    await svc.close();
  });
});

describe('engine service: live views', () => {
  it('pushes a view change set to the client that opened it when another user posts', async () => {
    const { svc, client, events } = service();
    const other = svc.connect(() => undefined);
    await client.invoke('signIn', { realm_url: t.url, email: 'hamlet@example.com', credentials: { password: 'sandbox' } });
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
    // The own user id (the renderer offers "Edit" on messages sent by it) is hamlet's.
    const users = await client.invoke('users', {});
    const hamlet = users.ok ? (users.value as { user_id: number; full_name: string }[]).find((u) => u.full_name === 'King Hamlet') : undefined;
    expect(hamlet).toBeDefined();
    expect(await client.invoke('ownUser', {})).toEqual({ ok: true, value: { user_id: hamlet?.user_id, role: 400 } });
    const opened = await client.invoke('openNarrow', { narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'service test' }], anchor: 'newest', before: 20, after: 0 });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const viewId = (opened.value as { view_id: string }).view_id;
    await t.as('othello').post('/messages', { type: 'stream', to: 'general', topic: 'service test', content: 'hello from othello' });
    await until(() => events.some((e) => e.type === 'view' && e.view_id === viewId && e.changes.added.some((m) => m.content.includes('hello from othello'))), 10_000, 'view push');
    // The sidebar hears about new messages even with no unread count moving (hamlet's own message).
    events.length = 0;
    await t.as('hamlet').post('/messages', { type: 'stream', to: 'general', topic: 'a brand new topic', content: 'mine' });
    await until(() => events.some((e) => e.type === 'areas' && e.areas.includes('messages')), 10_000, 'a messages area event');
    // Another client cannot drive this client's view.
    const foreign = await other.invoke('loadOlder', { view_id: viewId, count: 10 });
    expect(foreign.ok === false && foreign.error.code).toBe('INVALID_REQUEST');
    expect(await client.invoke('closeNarrow', { view_id: viewId })).toEqual({ ok: true, value: { ok: true } });
    await svc.close();
  });
});
