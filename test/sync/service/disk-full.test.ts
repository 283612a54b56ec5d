/**
 * A full disk under the engine service's event path (docs/sync-design.md "A full disk"), with the
 * account database's writes refused by an injected `SQLITE_FULL` (test/support/disk-faults.ts):
 *   - the stream going down while the disk is full (the gap marker is written from the poller's
 *     status callback) and events arriving meanwhile throw nothing out of the engine;
 *   - the user's changes (a draft, a message) are refused with DISK_FULL in words, and the status
 *     says the disk is full;
 *   - events refused by the disk are polled again from the same queue position (no re-register)
 *     and the state is logged once, not per attempt;
 *   - with room again everything resumes by itself: the refused events are stored from the same
 *     queue, and the user's next change lands once.
 */
import { describe, expect, it } from 'vitest';
import type { EngineLogger } from '../../../sync/base/seams.js';
import { getStoredMessage } from '../../../sync/db/queries/messages.js';
import { streamGap } from '../../../sync/engine/narrow/ranges.js';
import { injectDiskFaults } from '../../support/disk-faults.js';
import { channelId } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

describe('engine service on a full disk', () => {
  it('the event path survives a full disk, changes are refused in words, and all resumes by itself', { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const logger: EngineLogger = { info: (m) => void lines.push(`info ${m}`), warn: (m) => void lines.push(`warn ${m}`), error: (m) => void lines.push(`error ${m}`) };
    const { svc, proxy, invoke } = await signedIn('hamlet', logger);
    const s = svc.activeSession!;
    const verona = channelId(t, 'Verona');
    const to = { type: 'channel', channel_id: verona, topic: 'disk' } as const;
    const disk = { full: true };
    const faults = injectDiskFaults(s.db, () => (disk.full ? 'SQLITE_FULL' : undefined));
    try {
      const from = lines.length;
      // The stream goes down while nothing can be written: the gap marker cannot be written either.
      await proxy.pause();
      await until(() => s.status.state === 'disk_full', 10_000, 'disk_full');
      expect(streamGap(s.db)).toBeUndefined();
      const refusedDraft = await invoke('saveDraft', { to, content: 'typed on a full disk' });
      expect(refusedDraft).toEqual({ ok: false, error: { code: 'DISK_FULL', message: 'The disk is full; your change was not saved.', details: { reason: 'full' } } });
      const refusedSend = await invoke('sendMessage', { to, content: 'sent on a full disk' });
      expect(refusedSend).toMatchObject({ ok: false, error: { code: 'DISK_FULL', message: 'The disk is full; your change was not saved.' } });
      expect((await invoke('status')).ok).toBe(true);

      // Back online, and someone writes: the events cannot be stored and are asked for again.
      await proxy.resume();
      const registersBefore = proxy.log.filter((l) => l.path.endsWith('/register')).length;
      const other = await t.as('iago').post('/messages', { type: 'channel', to: 'Verona', topic: 'disk', content: 'from iago while the disk is full' });
      const otherId = Number(other.json.id);
      const pollsBefore = proxy.log.filter((l) => l.path.includes('/events')).length;
      await until(() => proxy.log.filter((l) => l.path.includes('/events')).length >= pollsBefore + 2, 10_000, 'polls retried');
      expect(getStoredMessage(s.db, otherId)).toBeUndefined();
      expect(s.status).toMatchObject({ state: 'disk_full', reason: 'full' });
      // Said once, not once per attempt (the server being away is said by the stream, as ever), and no error.
      expect(lines.slice(from).filter((l) => l.includes('disk'))).toEqual(['warn the disk is full: changes are refused and syncing waits until there is room']);
      expect(lines.slice(from).filter((l) => l.startsWith('error'))).toEqual([]);

      // Room again: nothing else is done here.
      disk.full = false;
      await until(() => s.status.state === 'live' && getStoredMessage(s.db, otherId) !== undefined, 20_000, 'resumed');
      // The same queue: the refused batch was polled again, never a resync.
      expect(proxy.log.filter((l) => l.path.endsWith('/register')).length).toBe(registersBefore);
      const sent = await invoke('sendMessage', { to, content: 'sent once there is room' });
      expect(sent.ok).toBe(true);
      await until(() => s.outbox.counts().pending === 0, 20_000, 'sent');
      const onServer = t.server.state.db.prepare<[], { content: string }>("SELECT content FROM messages WHERE topic = 'disk' ORDER BY id").all().map((r) => r.content);
      expect(onServer).toEqual(['from iago while the disk is full', 'sent once there is room']);
      expect(faults.injected.SQLITE_FULL).toBeGreaterThan(0);
    } finally {
      faults.off();
      await svc.close();
    }
  });
});
