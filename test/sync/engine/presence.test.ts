/**
 * Presence in the engine (docs/sync-design.md "Presence"): register's presences and statuses and
 * their events are stored; each person shows active / idle / offline against the engine's clock
 * and the server's threshold; once a page reports activity the engine reports the user's own
 * presence at once and every ping interval, live only, never queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SleepAborted, type Sleep } from '../../../sync/base/seams.js';
import { realmPresences } from '../../../server/model/presence.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, quickSleep, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('presence in the engine', () => {
  it('stores presences and statuses, computes what each shows with the fake clock, and reports its own', async () => {
    // The ping interval's sleeps end only when the test says so; the poller's are quick.
    const pings: Array<() => void> = [];
    const sleep: Sleep = (ms, signal) =>
      ms !== 60_000
        ? quickSleep(ms, signal)
        : new Promise<void>((resolve, reject) => {
            pings.push(resolve);
            signal?.addEventListener('abort', () => reject(new SleepAborted()), { once: true });
          });
    const s = openSession(t, ':memory:', 'hamlet', { seams: { sleep, clock: { now: () => t.clock.now() } } });
    const iago = t.userId('iago');
    const hamlet = t.userId('hamlet');
    const shown = (id: number) => s.presences().find((p) => p.user_id === id);
    const serverHas = (id: number) => realmPresences(t.server.state).presences[String(id)];
    try {
      s.start();
      await until(() => s.status.state === 'live', 10_000, 'live');
      // No page has reported activity: nothing is sent.
      expect(serverHas(hamlet)).toBeUndefined();

      await t.as('iago').post('/users/me/presence', { status: 'active', ping_only: true });
      await t.as('iago').post('/users/me/status', { status_text: 'in a meeting', emoji_name: 'calendar', emoji_code: '1f4c6' });
      await until(() => shown(iago)?.status_text === 'in a meeting' && shown(iago)?.presence === 'active', 5_000, 'the events');
      expect(shown(iago)).toMatchObject({ presence: 'active', emoji_name: 'calendar', emoji_code: '1f4c6' });

      // Active: reported at once.
      s.reportActivity(true, true);
      await until(() => serverHas(hamlet) !== undefined && shown(hamlet) !== undefined, 5_000, 'the first report and its answer');
      const now = Math.floor(t.clock.now() / 1000);
      expect(serverHas(hamlet)).toEqual({ active_timestamp: now, idle_timestamp: now });
      expect(shown(hamlet)?.presence).toBe('active');

      // 100 s later without focus: the next ping says idle; iago is now idle... then offline past 140 s.
      s.reportActivity(false, false);
      t.clock.advance(100_000);
      expect(shown(iago)?.presence).toBe('active');
      await until(() => pings.length > 0, 5_000, 'the ping loop waiting');
      pings.shift()!();
      await until(() => serverHas(hamlet)?.idle_timestamp === now + 100 && pings.length > 0, 5_000, 'the idle report');
      expect(serverHas(hamlet)?.active_timestamp).toBe(now);
      t.clock.advance(41_000);
      expect(shown(iago)?.presence).toBe('offline');
      expect(shown(hamlet)?.presence).toBe('idle');

      // Offline: nothing is sent (presence is never queued).
      await s.stop();
      const before = serverHas(hamlet);
      s.reportActivity(true, true);
      expect(serverHas(hamlet)).toEqual(before);
    } finally {
      await s.close();
    }
  }, 30_000);
});
