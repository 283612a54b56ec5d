/**
 * The status tells the truth, end to end through the engine service (the hosts' boundary) against
 * the reference server (loopback): Offline at the first failed poll once the server goes away,
 * every status frame valid under the contract (the renderer drops one that is not), a reloaded
 * page gets the current status from the `status` query at once, and after the server comes back
 * (restarted: its event queues are gone) or forgets the queue, the status returns to Live and
 * online-only operations work again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getQueuePosition } from '../../../sync/db/queries/state.js';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import { sessionStatus, type EngineEvent, type SessionStatus } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  let t: TestServer = await startTestServer({ dataPath: `${dir.dir}/server.db` });
  const port = t.server.port;
  cleanups.push(() => t.close());
  const svc = new EngineService({ dataDir: `${dir.dir}/client`, secrets: new MemorySecretStore(), seams: { logger: silentEngineLogger, sleep: quickSleep }, timeoutMs: 5_000 });
  cleanups.push(() => svc.close());
  const frames: unknown[] = [];
  const client = svc.connect((e: EngineEvent) => {
    if (e.type === 'status') frames.push(e.status);
  });
  const r = await client.invoke('signIn', { realm_url: t.url, email: 'hamlet@example.com', credentials: { password: 'sandbox' } });
  expect(r.ok).toBe(true);
  const status = (): SessionStatus => svc.activeSession!.status;
  await until(() => status().state === 'live', 10_000, 'live');
  return {
    svc,
    client,
    frames,
    status,
    server: () => t,
    stopServer: () => t.close(),
    restartServer: async () => {
      t = await startTestServer({ dataPath: `${dir.dir}/server.db`, port });
    },
  };
}

/** Every frame as the renderer parses it: one that does not parse is dropped there. */
function expectAllValid(frames: readonly unknown[]): void {
  for (const f of frames) expect(sessionStatus.safeParse(f).success, JSON.stringify(f)).toBe(true);
}

describe('status tells the truth', () => {
  it('offline at the first failed poll, valid frames, a reloaded page gets it at once; live again after a server restart', async () => {
    const s = await setup();
    await s.stopServer();
    await until(() => s.status().state === 'offline', 10_000, 'offline');
    const first = s.frames.find((f) => (f as SessionStatus).state === 'offline') as Extract<SessionStatus, { state: 'offline' }>;
    expect(first.failures).toBe(1);
    expect(first.error.length).toBeGreaterThan(0);
    expect(Number.isInteger(first.nextRetryAt)).toBe(true);
    // Let the backoff grow past the 5th failure (where the fractional retry time used to start).
    await until(() => s.frames.filter((f) => (f as SessionStatus).state === 'offline').length >= 6, 15_000, 'six failures');
    expectAllValid(s.frames);
    // A reloaded page: a new client asks for the status and gets the current one, not an error.
    const reloaded = s.svc.connect(() => undefined);
    const now = await reloaded.invoke('status', {});
    expect(now.ok).toBe(true);
    if (now.ok) expect((now.value as SessionStatus).state).toBe('offline');
    // Online-only operations say OFFLINE meanwhile.
    const off = await s.client.invoke('messageRawContent', { message_id: 1 });
    expect(off.ok === false && off.error.code).toBe('OFFLINE');

    // The server comes back, without the event queue (queues live in memory): re-register.
    const before = s.frames.length;
    await s.restartServer();
    await until(() => s.status().state === 'live', 15_000, 'live after the restart');
    const after = s.frames.slice(before).map((f) => (f as SessionStatus).state);
    expect(after.at(-1)).toBe('live');
    expect(after).toContain('syncing'); // the register and the gap backfill showed progress
    expectAllValid(s.frames);
    const id = (await s.server().as('iago').post('/messages', { type: 'channel', to: 'Verona', topic: 'back', content: 'after the restart' })).json.id as number;
    const raw = await s.client.invoke('messageRawContent', { message_id: id });
    expect(raw).toMatchObject({ ok: true, value: { raw_content: 'after the restart' } });
  }, 45_000);

  it('a queue the server forgot while live (BAD_EVENT_QUEUE_ID) re-registers and the status returns to live', async () => {
    const s = await setup();
    const session = s.svc.activeSession!;
    const queue = getQueuePosition(session.db)?.queue_id;
    expect(queue).toBeDefined();
    const before = s.frames.length;
    s.server().server.state.queues.delete(queue!, s.server().userId('hamlet'));
    await until(() => s.frames.slice(before).some((f) => (f as SessionStatus).state === 'syncing'), 10_000, 're-register');
    await until(() => s.status().state === 'live', 10_000, 'live again');
    expect(session.online).toBe(true);
    expectAllValid(s.frames);
    const raw = await s.client.invoke('messageRawContent', { message_id: 1 });
    expect(raw.ok === false ? raw.error.code : 'ok').not.toBe('OFFLINE');
  }, 30_000);
});
