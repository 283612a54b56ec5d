/** The unread badge: every organisation's unread count summed, recomputed on relevant events, throttled. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startUnreadBadge, unreadTotal } from '../../main/badge.js';
import type { Organisation } from '../../sync/protocol/accounts.js';
import type { EngineEvent } from '../../sync/protocol/commands.js';
import type { RpcResult } from '../../sync/protocol/rpc.js';

const org = (id: number, unread: number, extra: Partial<Organisation> = {}): Organisation => ({
  id: `a${id}`,
  realm_url: `https://org${id}.example.com`,
  email: 'me@example.com',
  kind: 'server',
  name: `Org ${id}`,
  unread,
  connection: 'live',
  ...extra,
});

function service(answer: () => RpcResult) {
  let push: (e: EngineEvent) => void = () => undefined;
  const calls: string[] = [];
  return {
    calls,
    push: (e: EngineEvent) => push(e),
    closed: vi.fn(),
    connect(p: (e: EngineEvent) => void) {
      push = p;
      return {
        invoke: async (name: string): Promise<RpcResult> => {
          calls.push(name);
          return answer();
        },
        close: this.closed,
      };
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('unread badge', () => {
  it('sums every organisation, the offline ones too', () => {
    expect(unreadTotal([org(1, 3), org(2, 4, { connection: 'offline' }), org(3, 0, { connection: 'closed' }), org(4, 2)])).toBe(9);
  });

  it('sets the count at start and after relevant events, one query per burst', async () => {
    let channels = [org(1, 3)];
    const svc = service(() => ({ ok: true, value: channels }));
    const setBadgeCount = vi.fn();
    const badge = startUnreadBadge({ service: svc, setBadgeCount, throttleMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(setBadgeCount.mock.calls).toEqual([[3]]);

    channels = [org(1, 3), org(2, 2)];
    for (let i = 0; i < 20; i++) svc.push({ type: 'areas', areas: ['unread'] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(svc.calls).toHaveLength(2);
    expect(setBadgeCount.mock.calls).toEqual([[3], [5]]);

    // Areas that cannot change unread counts cost nothing; the same count is not set again.
    svc.push({ type: 'areas', areas: ['typing', 'users'] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(svc.calls).toHaveLength(2);
    svc.push({ type: 'status', status: { state: 'live' } });
    svc.push({ type: 'status', status: { state: 'live' } });
    await vi.advanceTimersByTimeAsync(1000);
    expect(svc.calls).toHaveLength(3);
    expect(setBadgeCount).toHaveBeenCalledTimes(2);
    svc.push({ type: 'status', status: { state: 'live' } }); // no change of state: nothing
    await vi.advanceTimersByTimeAsync(1000);
    expect(svc.calls).toHaveLength(3);

    badge.close();
    expect(svc.closed).toHaveBeenCalled();
    svc.push({ type: 'areas', areas: ['unread'] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(svc.calls).toHaveLength(3);
  });

  it('clears the badge when no account is open', async () => {
    let r: RpcResult = { ok: true, value: [org(1, 7)] };
    const svc = service(() => r);
    const setBadgeCount = vi.fn();
    startUnreadBadge({ service: svc, setBadgeCount, throttleMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    r = { ok: false, error: { code: 'NO_ACCOUNT', message: 'no account' } };
    svc.push({ type: 'areas', areas: ['accounts'] });
    await vi.advanceTimersByTimeAsync(10);
    expect(setBadgeCount.mock.calls).toEqual([[7], [0]]);
  });
});
