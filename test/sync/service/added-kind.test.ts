/**
 * Adding a kind touches its module and the one list (sync/outbox/registry.ts `KIND_MODULES`):
 * here a test module (test/sync/outbox/fake-kind.ts) and the app's list with it, and nothing
 * else. The derived tables serve it end to end: the registry knows it, the service accepts its
 * command (and refuses a request its schema refuses), its row shows in the outbox view described
 * in its own words, and the pusher sends it once the server is reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutboxRowView } from '../../../sync/protocol/index.js';
import * as registry from '../../../sync/outbox/registry.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { until } from '../engine/session-helpers.js';
import { pinned } from '../outbox/fake-kind.js';
import { signedInService } from './service-support.js';

vi.mock('../../../sync/outbox/registry.js', async (importOriginal) => {
  const app = await importOriginal<typeof import('../../../sync/outbox/registry.js')>();
  const { pinNote, pinNoteCommands } = await import('../outbox/fake-kind.js');
  const list = [...app.KIND_MODULES, { kind: pinNote, commands: pinNoteCommands }];
  const derived = app.deriveTables(list);
  return { ...app, ...derived, KIND_MODULES: list };
});

let t: TestServer;
let proxy: FaultProxy | undefined;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
afterEach(() => proxy?.close());

describe('a kind added to the list', () => {
  it('is known to the registry, and its command is in the derived table', () => {
    expect(registry.CURRENT_KINDS.get('pin_note')?.version).toBe(1);
    expect(registry.allKinds().get('pin_note', 1)).toBeDefined();
    expect(Object.keys(registry.QUEUED_COMMANDS)).toContain('pinNote');
    expect(registry.describeRow('pin_note', { note: 'lunch at one' }, { channel: () => undefined, user: () => undefined, group: () => undefined }).text).toBe('Pin the note “lunch at one”');
  });

  it('is served end to end: queued offline through the service, shown in words, sent once back online', async () => {
    const s = await signedInService(t, 'hamlet');
    proxy = s.proxy;
    await s.proxy.pause();
    await until(() => s.svc.activeSession?.status.state === 'offline', 10_000, 'offline');

    const r = (await s.call('pinNote', { note: 'lunch at one' })) as { outbox_id: number; outcome: string };
    expect(r.outcome).toBe('added');
    const bad = await s.invoke('pinNote', { note: '' });
    expect(bad.ok === false && bad.error.code).toBe('INVALID_REQUEST');

    const rows = (await s.call('outbox')) as OutboxRowView[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outbox_id: r.outbox_id, kind: 'pin_note', target: 'note:lunch at one', args: { note: 'lunch at one' }, description: { text: 'Pin the note “lunch at one”', link: null } });
    // The app's own commands are still served beside it.
    await s.call('updateUserTopic', { channel_id: channelId(t, 'Verona'), topic: 'notes', visibility_policy: 3 });
    expect(pinned).toEqual([]);

    await s.proxy.resume();
    await s.call('nudge', { reason: 'network' });
    await until(() => (s.svc.activeSession?.outbox.counts().pending ?? 1) === 0, 15_000, 'drained');
    expect(pinned).toEqual(['lunch at one']);
    expect(((await s.call('outbox', { include_finished: true })) as OutboxRowView[]).map((x) => [x.kind, x.state])).toEqual([
      ['pin_note', 'done'],
      ['update_user_topic', 'done'],
    ]);
    await s.svc.close();
  });
});
