/**
 * StorageHealth (docs/sync-design.md "A full disk"): which errors are a refused write, one log line
 * per change of state, retry ticks with a backoff (1 s doubling to a minute), a probe that ends
 * the state by itself, and space that comes back only briefly not resetting the backoff.
 */
import { describe, expect, it } from 'vitest';
import { defaultSeams, type EngineLogger } from '../../../sync/base/seams.js';
import { StorageHealth, storageFault, type StorageState } from '../../../sync/db/storage.js';
import { refusedWrite } from '../../support/disk-faults.js';
import { fakeTime } from '../outbox/helpers.js';

const turn = () => new Promise((r) => setTimeout(r, 0));

function health(probe?: () => void) {
  const time = fakeTime();
  const lines: string[] = [];
  const logger: EngineLogger = { info: (m) => void lines.push(`info ${m}`), warn: (m) => void lines.push(`warn ${m}`), error: (m) => void lines.push(`error ${m}`) };
  const h = new StorageHealth({ seams: { ...defaultSeams, ...time.seams, logger }, ...(probe ? { probe } : {}) });
  const states: StorageState['state'][] = [];
  h.onChange((s) => states.push(s.state));
  let retries = 0;
  h.onRetry(() => retries++);
  return { h, time, lines, states, retries: () => retries };
}

describe('storageFault', () => {
  it('knows SQLITE_FULL and SQLITE_IOERR_*, also as the cause of a wrapping error, and nothing else', () => {
    expect(storageFault(refusedWrite('SQLITE_FULL'))).toBe('full');
    expect(storageFault(refusedWrite('SQLITE_IOERR_WRITE'))).toBe('io');
    expect(storageFault(new Error('applying failed', { cause: refusedWrite('SQLITE_FULL') }))).toBe('full');
    expect(storageFault(Object.assign(new Error('busy'), { name: 'SqliteError', code: 'SQLITE_BUSY' }))).toBeUndefined();
    expect(storageFault(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))).toBeUndefined();
    expect(storageFault('SQLITE_FULL')).toBeUndefined();
  });
});

describe('StorageHealth', () => {
  it('logs once per change of state and ticks with a backoff while refused', async () => {
    const { h, time, lines, states, retries } = health();
    expect(h.failed(new Error('not the disk'))).toBe(false);
    expect(h.refused).toBe(false);
    for (let i = 0; i < 100; i++) expect(h.failed(refusedWrite('SQLITE_FULL'))).toBe(true);
    expect(lines).toEqual(['warn the disk is full: changes are refused and syncing waits until there is room']);
    expect(h.state).toMatchObject({ state: 'full', since: time.now(), nextRetryAt: time.now() + 1_000 });
    for (const step of [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]) {
      time.advance(step);
      await turn();
    }
    expect(time.requested).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(retries()).toBe(8);
    h.succeeded();
    h.succeeded();
    expect(h.state).toEqual({ state: 'ok' });
    expect(retries()).toBe(9);
    expect(lines).toHaveLength(2);
    expect(states).toEqual(['full', 'full', 'full', 'full', 'full', 'full', 'full', 'full', 'full', 'ok']);
    h.close();
  });

  it('a probe ends the state by itself once it can write', async () => {
    let room = false;
    const { h, time, lines } = health(() => {
      if (!room) throw refusedWrite('SQLITE_FULL');
    });
    h.failed(refusedWrite('SQLITE_FULL'));
    time.advance(1_000);
    await turn();
    expect(h.refused).toBe(true);
    room = true;
    time.advance(2_000);
    await turn();
    expect(h.refused).toBe(false);
    expect(lines).toEqual(['warn the disk is full: changes are refused and syncing waits until there is room', 'info the disk takes writes again; resuming']);
    h.close();
  });

  it('space that comes back only briefly keeps the backoff growing', async () => {
    const { h, time } = health();
    h.failed(refusedWrite('SQLITE_FULL'));
    time.advance(1_000);
    await turn();
    h.succeeded();
    h.failed(refusedWrite('SQLITE_FULL'));
    expect(time.requested).toEqual([1_000, 2_000, 4_000]);
    h.close();
  });

  it('write() notes a refused write and rethrows it; a write that works ends the state', () => {
    const { h } = health();
    expect(() => h.write(() => { throw refusedWrite('SQLITE_IOERR_WRITE'); })).toThrow('disk I/O error');
    expect(h.state.state).toBe('io');
    expect(h.write(() => 7)).toBe(7);
    expect(h.refused).toBe(false);
    h.close();
  });
});
