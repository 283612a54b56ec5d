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
    expect(v).toEqual({ tone: 'busy', label: 'Syncing: Fetching history 120 / 1000', detail: null, name: 'Syncing: fetching message history, 120 of 1000.', progress: { value: 120, max: 1000 } });
    const gap = describeStatus({ state: 'syncing', progress: { phase: 'gap', done: 5, total: null } }, true, NOW);
    expect(gap.label).toBe('Syncing: Catching up 5');
    expect(gap.progress).toEqual({ value: 5, max: null });
    const outbox = describeStatus({ state: 'syncing', progress: { phase: 'outbox', done: 1, total: 3 } }, true, NOW);
    expect(outbox).toMatchObject({ tone: 'busy', label: 'Sending changes 1 / 3', name: 'Sending your changes to the server: 1 of 3 sent.', progress: { value: 1, max: 3 } });
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

  it('names every state with a sentence, never the engine’s technical line', () => {
    const refused = { state: 'offline' as const, failures: 4, nextRetryAt: NOW + 12_300, error: 'GET /events: network error (ECONNREFUSED)', cause: 'network' as const };
    const off = describeStatus(refused, true, NOW, 3);
    expect(off.name).toBe('Offline: the server cannot be reached. 3 changes will be sent when it is back.');
    expect(off.label).toBe('Offline, retrying in 13 s');
    // The technical reason stays available as the tooltip, not the name.
    expect(off.detail).toBe('GET /events: network error (ECONNREFUSED)');
    expect(describeStatus(refused, true, NOW, 1).name).toBe('Offline: the server cannot be reached. 1 change will be sent when it is back.');
    expect(describeStatus(refused, true, NOW, 0).name).toBe('Offline: the server cannot be reached.');
    // An engine that does not say the cause: still words.
    expect(describeStatus({ state: 'offline', failures: 1, nextRetryAt: NOW, error: 'GET /events: network error (ECONNREFUSED)' }, true, NOW).name).toBe('Offline: the server cannot be reached.');
    expect(describeStatus({ ...refused, cause: 'timeout' }, true, NOW).name).toBe('Offline: the server is not answering.');
    expect(describeStatus({ ...refused, cause: 'server' }, true, NOW, 2).name).toBe('Offline: the server has a problem. 2 changes will be sent when it is back.');
    expect(describeStatus({ ...refused, cause: 'rate_limited' }, true, NOW).name).toBe('Offline: the server asked to wait.');
    expect(describeStatus({ state: 'error', failures: 9, nextRetryAt: NOW + 300_000, error: 'GET /events: malformed', cause: 'malformed' }, true, NOW).name).toBe("Not syncing: the server's answers cannot be used; trying again in 5 min.");
    expect(describeStatus({ state: 'live' }, true, NOW, 0).name).toBe('Live: connected; updates arrive as they happen.');
    expect(describeStatus({ state: 'connecting' }, true, NOW, 2).name).toBe('Connecting to the server. 2 changes will be sent when it answers.');
    expect(describeStatus({ state: 'stopped' }, true, NOW, 1).name).toBe('Stopped: syncing is paused. 1 change will be sent when syncing resumes.');
    expect(describeStatus({ state: 'unauthorized', error: 'Invalid API key' }, true, NOW).name).toBe('Signed out by the server: sign in again to continue.');
    expect(describeStatus({ state: 'syncing', progress: { phase: 'outbox', done: 2, total: null } }, true, NOW).name).toBe('Sending your changes to the server: 2 sent so far.');
    expect(describeStatus({ state: 'syncing', progress: { phase: 'gap', done: 5, total: null } }, true, NOW).name).toBe('Syncing: catching up on what happened while away, 5 so far.');
    expect(describeStatus({ state: 'syncing', progress: { phase: 'register', done: 0, total: null } }, true, NOW).name).toBe('Syncing: registering with the server.');
    expect(describeStatus(null, true, NOW).name).toBe('Starting.');
    expect(describeStatus({ state: 'live' }, false, NOW).name).toBe(
      'Reconnecting to the app: the connection to the app host was lost. This tab reconnects by itself when the app answers here again; if it was started at another address, open the link it printed.',
    );
    // The host answers but no longer knows this tab: no "reconnecting", what to do instead.
    expect(describeStatus({ state: 'live' }, 'refused', NOW)).toMatchObject({
      label: 'Not signed in to the app',
      name: 'Not signed in to the app: The app was started again with a new sign-in, so this tab cannot reach it any more. Open the sign-in link it printed.',
    });
    const full = describeStatus({ state: 'disk_full', reason: 'full', since: NOW, nextRetryAt: NOW, error: 'database or disk is full' }, true, NOW);
    expect(full.name).not.toContain('database or disk is full');
    for (const v of [off, full]) expect(v.name).toMatch(/^[A-Z].*\.$/);
  });

  it('phrases retry times', () => {
    expect(retryIn(NOW - 5, NOW)).toBe('now');
    expect(retryIn(NOW + 1, NOW)).toBe('in 1 s');
    expect(retryIn(NOW + 89_000, NOW)).toBe('in 89 s');
    expect(retryIn(NOW + 95_000, NOW)).toBe('in 2 min');
  });
});
