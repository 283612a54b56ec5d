/** What the status indicator says for every session state, the host being away, and countdowns. */
import { describe, expect, it } from 'vitest';
import { describeStatus, needsTicking, retryIn } from '../../../renderer/src/data/status-reducer.js';

const NOW = 1_700_000_000_000;

describe('status indicator', () => {
  it('says live, connecting, stopped, and starting before anything is known', () => {
    expect(describeStatus({ state: 'live' }, true, NOW)).toMatchObject({ tone: 'live', label: 'Live', progress: null });
    expect(describeStatus({ state: 'connecting' }, true, NOW)).toMatchObject({ tone: 'busy', label: 'Connecting…' });
    expect(describeStatus({ state: 'stopped' }, true, NOW)).toMatchObject({ tone: 'offline', label: 'Stopped' });
    expect(describeStatus(null, true, NOW)).toMatchObject({ tone: 'busy', label: 'Starting…' });
  });

  it('shows the sync phase with done / total and a progress bar (indeterminate without a total)', () => {
    const v = describeStatus({ state: 'syncing', progress: { phase: 'history', done: 120, total: 1000 } }, true, NOW);
    expect(v).toEqual({ tone: 'busy', label: 'Syncing: Fetching history 120 / 1000', detail: null, progress: { value: 120, max: 1000 } });
    const gap = describeStatus({ state: 'syncing', progress: { phase: 'gap', done: 5, total: null } }, true, NOW);
    expect(gap.label).toBe('Syncing: Catching up 5');
    expect(gap.progress).toEqual({ value: 5, max: null });
    const outbox = describeStatus({ state: 'syncing', progress: { phase: 'outbox', done: 1, total: 3 } }, true, NOW);
    expect(outbox.label).toBe('Syncing: Sending changes 1 / 3');
  });

  it('counts down to the next retry when offline or failing, with the error as detail', () => {
    const off = describeStatus({ state: 'offline', failures: 3, nextRetryAt: NOW + 12_300, error: 'network down' }, true, NOW);
    expect(off).toMatchObject({ tone: 'offline', label: 'Offline, retrying in 13 s', detail: 'network down' });
    const asked = describeStatus({ state: 'offline', failures: 1, nextRetryAt: NOW + 60_000, error: 'rate limited', serverAskedRetryAfterMs: 86_400_000 }, true, NOW);
    expect(asked).toMatchObject({ label: 'Offline, retrying in 60 s', detail: 'rate limited (the server asked to wait 24 h; retrying sooner)' });
    const err = describeStatus({ state: 'error', failures: 9, nextRetryAt: NOW + 300_000, error: 'bad answer' }, true, NOW);
    expect(err).toMatchObject({ tone: 'error', label: 'Error, retrying in 5 min' });
    expect(needsTicking({ state: 'offline', failures: 1, nextRetryAt: 0, error: '' })).toBe(true);
    expect(needsTicking({ state: 'live' })).toBe(false);
    expect(needsTicking(null)).toBe(false);
  });

  it('says the disk is full (or refuses writes) and counts down to the next try', () => {
    const full = describeStatus({ state: 'disk_full', reason: 'full', since: NOW - 5_000, nextRetryAt: NOW + 4_000, error: 'database or disk is full' }, true, NOW);
    expect(full).toMatchObject({ tone: 'error', label: 'Disk full, retrying in 4 s', progress: null });
    expect(full.detail).toContain('The disk is full: changes are not saved until there is room again');
    const io = describeStatus({ state: 'disk_full', reason: 'io', since: NOW, nextRetryAt: NOW + 60_000, error: 'disk I/O error' }, true, NOW);
    expect(io).toMatchObject({ tone: 'error', label: 'Disk error, retrying in 60 s' });
    expect(needsTicking({ state: 'disk_full', reason: 'full', since: NOW, nextRetryAt: NOW, error: '' })).toBe(true);
  });

  it('says when the server refused the credentials', () => {
    expect(describeStatus({ state: 'unauthorized', error: 'Invalid API key' }, true, NOW)).toMatchObject({ tone: 'error', label: 'Signed out by the server', detail: 'Invalid API key' });
  });

  it('puts the host connection first: a lost host hides a stale live', () => {
    expect(describeStatus({ state: 'live' }, false, NOW)).toMatchObject({ tone: 'offline', label: 'Reconnecting to the app…' });
  });

  it('phrases retry times', () => {
    expect(retryIn(NOW - 5, NOW)).toBe('now');
    expect(retryIn(NOW + 1, NOW)).toBe('in 1 s');
    expect(retryIn(NOW + 89_000, NOW)).toBe('in 89 s');
    expect(retryIn(NOW + 95_000, NOW)).toBe('in 2 min');
  });
});
