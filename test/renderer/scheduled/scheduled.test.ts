/** Scheduled messages: wall times in a zone, delivery validation, list order and pending rows. */
import { describe, expect, it } from 'vitest';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import type { OutboxRowOf } from '../../../sync/outbox/registry.js';
import { changedRecipients, dmPeople, pendingError, pendingLabel, pendingRowsFor, refusedForTime, sendingNow, sortByDelivery } from '../../../renderer/src/scheduled/scheduled-list.js';
import { deliveryProblem, formatDelivery, quickPicks, unixToWallTime, userTimeZone, wallTimeToUnix } from '../../../renderer/src/scheduled/schedule-time.js';
import { outboxRow } from '../fixtures.js';

describe('wall times in the user’s zone', () => {
  it('reads a datetime-local value in the given zone, both ways', () => {
    // 2026-07-01 09:00 in Berlin (CEST, UTC+2) is 07:00 UTC.
    expect(wallTimeToUnix('2026-07-01T09:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 7, 0) / 1000);
    // In winter (CET, UTC+1).
    expect(wallTimeToUnix('2026-01-15T09:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 0, 15, 8, 0) / 1000);
    expect(wallTimeToUnix('2026-01-15T09:00', 'America/New_York')).toBe(Date.UTC(2026, 0, 15, 14, 0) / 1000);
    expect(wallTimeToUnix('2026-01-15T09:00', 'UTC')).toBe(Date.UTC(2026, 0, 15, 9, 0) / 1000);
    expect(unixToWallTime(Date.UTC(2026, 6, 1, 7, 0) / 1000, 'Europe/Berlin')).toBe('2026-07-01T09:00');
    expect(unixToWallTime(Date.UTC(2026, 0, 15, 14, 5) / 1000, 'America/New_York')).toBe('2026-01-15T09:05');
    expect(unixToWallTime(Date.UTC(2026, 11, 31, 23, 30) / 1000, 'Asia/Kolkata')).toBe('2027-01-01T05:00');
  });

  it('round-trips across a daylight-saving change', () => {
    // Berlin goes to summer time on 2026-03-29 at 02:00 → 03:00.
    for (const v of ['2026-03-28T23:00', '2026-03-29T01:30', '2026-03-29T03:30', '2026-10-25T04:00']) {
      expect(unixToWallTime(wallTimeToUnix(v, 'Europe/Berlin') ?? 0, 'Europe/Berlin')).toBe(v);
    }
  });

  it('refuses what is not a time', () => {
    expect(wallTimeToUnix('', 'UTC')).toBeNull();
    expect(wallTimeToUnix('2026-02-31T10:00', 'UTC')).toBeNull();
    expect(wallTimeToUnix('2026-13-01T10:00', 'UTC')).toBeNull();
    expect(wallTimeToUnix('2026-01-01T24:00', 'UTC')).toBeNull();
    expect(wallTimeToUnix('tomorrow', 'UTC')).toBeNull();
  });

  it('takes the timezone setting only when it names a zone', () => {
    expect(userTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(userTimeZone('')).toBeUndefined();
    expect(userTimeZone('Mars/Olympus')).toBeUndefined();
    expect(userTimeZone(42)).toBeUndefined();
  });
});

describe('delivery times', () => {
  const now = 1_800_000_000;
  it('must be a time, in the future, and new for a failed message', () => {
    expect(deliveryProblem(null, now)).toMatch(/Pick a date/);
    expect(deliveryProblem(now - 10, now)).toMatch(/at least a minute/);
    expect(deliveryProblem(now + 30, now)).toMatch(/at least a minute/);
    expect(deliveryProblem(now + 3600, now)).toBeNull();
    expect(deliveryProblem(now + 3600, now, now + 3600)).toMatch(/pick a new one/);
    expect(deliveryProblem(now + 7200, now, now + 3600)).toBeNull();
  });

  it('is shown in the user’s zone and hour format', () => {
    const t = Date.UTC(2026, 6, 1, 13, 5) / 1000; // a Wednesday
    expect(formatDelivery(t, 'UTC', true, 'en-US')).toBe('Wed, Jul 1, 2026, 13:05');
    expect(formatDelivery(t, 'UTC', false, 'en-US')).toBe('Wed, Jul 1, 2026, 1:05 PM');
    expect(formatDelivery(t, 'Europe/Berlin', true, 'en-US')).toBe('Wed, Jul 1, 2026, 15:05');
  });

  it('offers an hour from now and tomorrow morning and afternoon', () => {
    const t = Date.UTC(2026, 6, 1, 13, 5, 20) / 1000;
    const picks = quickPicks(t, 'UTC');
    expect(picks.map((p) => p.label)).toEqual(['In one hour', 'Tomorrow at 9:00', 'Tomorrow at 16:00']);
    expect(picks.map((p) => unixToWallTime(p.seconds, 'UTC'))).toEqual(['2026-07-01T14:06', '2026-07-02T09:00', '2026-07-02T16:00']);
    expect(unixToWallTime(quickPicks(t, 'Pacific/Auckland')[1]?.seconds ?? 0, 'Pacific/Auckland')).toBe('2026-07-03T09:00');
  });
});

const row = (over: Partial<Omit<OutboxRowView, 'kind' | 'args'>> & { kind?: string }): OutboxRowOf => outboxRow({ outbox_id: 1, target: 'scheduled_message:5', ...over, kind: over.kind ?? 'update_scheduled_message', args: null });

describe('the list', () => {
  it('is ordered by delivery time, then id', () => {
    const list = [
      { scheduled_message_id: 3, scheduled_delivery_timestamp: 200 },
      { scheduled_message_id: -1, scheduled_delivery_timestamp: 100 },
      { scheduled_message_id: 2, scheduled_delivery_timestamp: 200 },
    ];
    expect(sortByDelivery(list).map((m) => m.scheduled_message_id)).toEqual([-1, 2, 3]);
  });

  it('finds the changes not on the server yet, by server or temporary id', () => {
    const rows = [
      row({ outbox_id: 1, target: 'scheduled_message:5' }),
      row({ outbox_id: 2, target: 'scheduled_message:tmp-3', kind: 'create_scheduled_message' }),
      row({ outbox_id: 3, target: 'snippet:5' }),
      row({ outbox_id: 4, target: 'scheduled_message:55' }),
      row({ outbox_id: 5, target: 'scheduled_message:5', state: 'done' }),
    ];
    expect(pendingRowsFor(rows, 'scheduled_message', 5).map((r) => r.outbox_id)).toEqual([1]);
    expect(pendingRowsFor(rows, 'scheduled_message', -3).map((r) => r.outbox_id)).toEqual([2]);
    expect(pendingRowsFor(rows, 'snippet', 5).map((r) => r.outbox_id)).toEqual([3]);
    expect(pendingRowsFor(rows, 'scheduled_message', 7)).toEqual([]);
  });

  it('says whether a change waits or failed, and why', () => {
    expect(pendingLabel([])).toBeNull();
    expect(pendingLabel([row({ state: 'retry_wait' })])).toBe('not sent yet');
    const failed = row({ state: 'failed', last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Scheduled message does not exist', details: null } });
    expect(pendingLabel([row({}), failed])).toBe('change failed');
    expect(pendingError([row({}), failed])).toBe('Scheduled message does not exist');
    expect(pendingError([row({})])).toBeNull();
  });
});

describe('a scheduled direct message’s recipients and send now', () => {
  const row = (kind: string, state: OutboxRowView['state']) => outboxRow({ outbox_id: 1, kind, args: null, target: 'scheduled_message:5', state });

  it('the picker starts with the others, or oneself for a note to self', () => {
    expect(dmPeople([7, 3, 9], 3)).toEqual([7, 9]);
    expect(dmPeople([3], 3)).toEqual([3]);
    expect(dmPeople(8, null)).toEqual([8]);
    expect(dmPeople([8, 8, 4], 1)).toEqual([8, 4]);
  });

  it('a change is the new list; the same people in another order is no change', () => {
    expect(changedRecipients([7, 9], [9, 7])).toBeNull();
    expect(changedRecipients([7, 9], [7, 9, 9])).toBeNull();
    expect(changedRecipients([7, 9], [7])).toEqual([7]);
    expect(changedRecipients([7], [7, 12])).toEqual([7, 12]);
    expect(changedRecipients([7], [])).toEqual([]);
  });

  it('a send-now row marks the message “sending now” and hides the button until it fails', () => {
    expect(pendingLabel([row('send_scheduled_message_now', 'queued')])).toBe('sending now');
    expect(pendingLabel([row('update_scheduled_message', 'queued')])).toBe('not sent yet');
    expect(pendingLabel([row('send_scheduled_message_now', 'failed')])).toBe('change failed');
    expect(sendingNow([row('send_scheduled_message_now', 'retry_wait')])).toBe(true);
    expect(sendingNow([row('send_scheduled_message_now', 'failed')])).toBe(false);
    expect(sendingNow([row('update_scheduled_message', 'queued')])).toBe(false);
  });
});

describe('a scheduled message whose create was refused for its time', () => {
  const args = { tmp_id: 'tmp-3', recipient: { type: 'channel' as const, to: 1, topic: 'lunch' }, content: 'Noon?', scheduled_delivery_timestamp: 100 };
  const refused = outboxRow({ outbox_id: 2, kind: 'create_scheduled_message', target: 'scheduled_message:tmp-3', state: 'failed', args, last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Scheduled delivery time must be in the future.', details: null } });

  it('says it was not scheduled and offers a new time (other refusals are a failed change)', () => {
    expect(refusedForTime([refused])).toBe(true);
    expect(pendingLabel([refused])).toBe('not scheduled');
    const other: OutboxRowOf = { ...refused, last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Invalid channel ID', details: null } };
    expect(refusedForTime([other])).toBe(false);
    expect(pendingLabel([other])).toBe('change failed');
    expect(refusedForTime([{ ...refused, state: 'queued' }])).toBe(false);
  });

  it('sent now before it was ever scheduled (the create carries send_now_at): “sending now”, no second Send now', () => {
    const sendNow = outboxRow({ ...refused, kind: 'create_scheduled_message', state: 'queued', args: { ...args, send_now_at: 1 }, last_error: null });
    expect(pendingLabel([sendNow])).toBe('sending now');
    expect(sendingNow([sendNow])).toBe(true);
    expect(sendingNow([outboxRow({ ...sendNow, kind: 'create_scheduled_message', args })])).toBe(false);
  });
});
