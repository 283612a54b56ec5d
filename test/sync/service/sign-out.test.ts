/**
 * Sign-out never drops queued work silently: with changes pending, failed or in conflict it says
 * how many and refuses until the user chooses: wait and send them first, keep them for later
 * (the database stays; the same account's next sign-in resumes them), or discard them.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import type { RpcResult } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

let t: TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  t = await startTestServer();
  proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
});
afterAll(async () => {
  await proxy.close();
  await t.close();
});
afterEach(() => proxy.resume());

const seams = { logger: silentEngineLogger, sleep: quickSleep };

async function signedIn(dir: string, who = 'hamlet') {
  const svc = new EngineService({ dataDir: dir, secrets: new MemorySecretStore(), seams, timeoutMs: 3_000 });
  const client = svc.connect(() => undefined);
  const r = await client.invoke('signIn', { realm_url: proxy.url, email: `${who}@example.com`, credentials: { password: 'sandbox' } });
  if (!r.ok) throw new Error(r.error.message);
  const id = (r.value as { id: string }).id;
  await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
  const invoke = (name: string, payload: unknown = {}): Promise<RpcResult> => client.invoke(name, payload);
  return { svc, id, invoke };
}
const dbFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
const serverSetting = async (who: string, key: string) => {
  const r = await t.as(who).post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
  if (typeof r.json.queue_id === 'string') await t.as(who).delete('/events', { queue_id: r.json.queue_id });
  return (r.json.user_settings as Record<string, unknown>)[key];
};

async function queueOffline(invoke: (n: string, p?: unknown) => Promise<RpcResult>, svc: EngineService, settings: Record<string, unknown>) {
  await proxy.pause();
  await until(() => svc.activeSession?.status.state !== 'live', 10_000, 'offline');
  expect((await invoke('updateSettings', { settings })).ok).toBe(true);
}

describe('sign-out with queued work', () => {
  it('refuses with the counts when nothing was chosen; discard deletes them with the local copy', async () => {
    const dir = tempDir();
    const { svc, id, invoke } = await signedIn(dir.dir);
    await queueOffline(invoke, svc, { left_side_userlist: true });
    await invoke('saveDraft', { to: { type: 'direct', user_ids: [svc.activeSession!.selfUserId!] }, content: 'a note' });
    expect(await invoke('signOutCheck', { id })).toEqual({ ok: true, value: { pending: 1, failed: 0, conflict: 0, drafts: 1 } });
    const refused = await invoke('signOut', { id });
    expect(refused.ok === false && refused.error).toMatchObject({ code: 'PENDING_CHANGES', details: { pending: 1 } });
    expect(refused.ok === false && refused.error.message).toMatch(/^1 pending change not on the server yet/);
    expect(svc.activeSession).toBeDefined();
    expect(dbFiles(dir.dir)).toHaveLength(1);
    // Images kept for offline viewing live beside the database and go with it.
    const uploads = path.join(dir.dir, dbFiles(dir.dir)[0]!.replace(/\.sqlite$/, '.uploads'));
    mkdirSync(uploads, { recursive: true });
    writeFileSync(path.join(uploads, 'kept-image'), 'x');
    // So do the copies of files queued for upload.
    const staged = svc.stageUpload(Buffer.from('a file'));
    expect(staged.ok).toBe(true);
    const copies = path.join(dir.dir, dbFiles(dir.dir)[0]!.replace(/\.sqlite$/, '.outbox-files'));
    expect(readdirSync(copies)).toHaveLength(1);
    expect(await invoke('signOut', { id, queued: 'discard' })).toEqual({ ok: true, value: { ok: true, kept: false } });
    expect(dbFiles(dir.dir)).toEqual([]);
    expect(existsSync(uploads)).toBe(false);
    expect(existsSync(copies)).toBe(false);
    await svc.close();
    dir.cleanup();
  });

  it('keep: the database stays, and the same account signing in again sends what was queued', async () => {
    const dir = tempDir();
    const before = await serverSetting('othello', 'web_font_size_px');
    const first = await signedIn(dir.dir, 'othello');
    const want = before === 16 ? 17 : 16;
    await queueOffline(first.invoke, first.svc, { web_font_size_px: want });
    await first.invoke('saveDraft', { to: { type: 'direct', user_ids: [first.svc.activeSession!.selfUserId!] }, content: 'kept draft' });
    expect(await first.invoke('signOut', { id: first.id, queued: 'keep' })).toEqual({ ok: true, value: { ok: true, kept: true } });
    expect((await first.invoke('accounts')).ok && first.svc.activeSession).toBeUndefined();
    expect(dbFiles(dir.dir)).toHaveLength(1);
    // The accounts state says what is kept for whom, across a restart of the service too.
    const kept = { id: first.id, realm_url: expect.any(String), email: 'othello@example.com', kind: 'server', unsent: 1, drafts: 1 };
    expect(await first.invoke('accounts')).toMatchObject({ ok: true, value: { accounts: [], kept: [kept] } });
    await first.svc.close();
    await proxy.resume();
    const restarted = new EngineService({ dataDir: dir.dir, secrets: new MemorySecretStore(), seams });
    expect(await restarted.connect(() => undefined).invoke('accounts', {})).toMatchObject({ ok: true, value: { kept: [kept] } });
    await restarted.close();

    const again = await signedIn(dir.dir, 'othello');
    // Signed in again: the work resumes, and nothing is said to be kept any more.
    expect(await again.invoke('accounts')).not.toMatchObject({ value: { kept: expect.anything() } });
    expect(((await again.invoke('drafts')) as { ok: true; value: Array<{ content: string }> }).value.map((d) => d.content)).toEqual(['kept draft']);
    await until(() => again.svc.activeSession?.outbox.counts().pending === 0, 15_000, 'resumed and landed');
    expect(await serverSetting('othello', 'web_font_size_px')).toBe(want);
    await again.svc.close();
    dir.cleanup();
  });

  it('wait: sends them first, then signs out; unable to send, it does nothing and says what remains', async () => {
    const dir = tempDir();
    const { svc, id, invoke } = await signedIn(dir.dir, 'cordelia');
    await queueOffline(invoke, svc, { starred_message_counts: false });
    // Still offline: waiting a moment cannot send it.
    const stuck = await invoke('signOut', { id, queued: 'wait', wait_ms: 300 });
    expect(stuck.ok === false && stuck.error).toMatchObject({ code: 'PENDING_CHANGES', details: { pending: 1 } });
    expect(svc.activeSession).toBeDefined();
    await proxy.resume();
    expect(await invoke('signOut', { id, queued: 'wait', wait_ms: 15_000 })).toEqual({ ok: true, value: { ok: true, kept: false } });
    expect(await serverSetting('cordelia', 'starred_message_counts')).toBe(false);
    expect(dbFiles(dir.dir)).toEqual([]);
    expect(existsSync(dir.dir)).toBe(true);
    await svc.close();
    dir.cleanup();
  });
});
