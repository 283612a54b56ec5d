/**
 * Reading marks read: the user's `web_mark_read_on_scroll_policy` (1 always, 2 only in
 * conversation views, 3 never) per view, which rows count as seen in a viewport, and the batcher
 * (one `updateMessageFlags` per interval, each id once, at most the contract's 5000 per call, failed
 * ids retried on a later sighting, seen ids still sent when the view closes).
 */
import { describe, expect, it } from 'vitest';
import { createReadBatcher, marksReadIn, MAX_IDS, readPolicyOf, seenRows } from '../../../renderer/src/narrow/read-marking.js';
import type { NarrowTarget } from '../../../renderer/src/data/target.js';
import { handClock } from '../hand-clock.js';

const clock = handClock;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the policy', () => {
  const views: Record<string, NarrowTarget> = {
    topic: { kind: 'topic', channelId: 1, channelName: 'general', topic: 'lunch' },
    dm: { kind: 'dm', userIds: [4] },
    channel: { kind: 'channel', channelId: 1, channelName: 'general' },
    feed: { kind: 'feed' },
    starred: { kind: 'starred' },
    mentioned: { kind: 'mentioned' },
    search: { kind: 'search', query: 'x' },
  };
  const where = (policy: 1 | 2 | 3 | null) => Object.keys(views).filter((k) => marksReadIn(views[k]!, policy));

  it('1 always: every view that can mark read (not starred, mentions or searches)', () => {
    expect(where(1)).toEqual(['topic', 'dm', 'channel', 'feed']);
  });
  it('2 only conversation views: a topic, a DM conversation', () => {
    expect(where(2)).toEqual(['topic', 'dm']);
  });
  it('3 never, and nothing while the settings are unknown', () => {
    expect(where(3)).toEqual([]);
    expect(where(null)).toEqual([]);
  });
  it('read from the user settings', () => {
    expect(readPolicyOf(null)).toBeNull();
    expect(readPolicyOf({ web_mark_read_on_scroll_policy: 2 })).toBe(2);
    expect(readPolicyOf({ web_mark_read_on_scroll_policy: 3 })).toBe(3);
    // A server without the setting behaved as "always"; a value from the future is not guessed at.
    expect(readPolicyOf({})).toBe(1);
    expect(readPolicyOf({ web_mark_read_on_scroll_policy: 9 })).toBeNull();
  });
});

describe('seen rows', () => {
  it('a row is seen once its bottom is in the viewport, or when it covers the viewport', () => {
    const rows = [
      { id: 1, top: -300, bottom: -10 }, // above: scrolled past, not seen now
      { id: 2, top: -50, bottom: 40 }, // its end is on screen
      { id: 3, top: 40, bottom: 400 },
      { id: 4, top: 400, bottom: 620 }, // cut at the bottom
      { id: 5, top: 620, bottom: 900 }, // below
    ];
    expect(seenRows(rows, 0, 600)).toEqual([2, 3]);
    expect(seenRows([{ id: 9, top: -100, bottom: 2000 }], 0, 600)).toEqual([9]);
  });
});

describe('the batcher', () => {
  function setup(opts: { fail?: boolean } = {}) {
    const c = clock();
    const calls: number[][] = [];
    let fail = opts.fail ?? false;
    const b = createReadBatcher({
      send: async (ids) => {
        calls.push(ids);
        if (fail) throw new Error('refused');
      },
      intervalMs: 1000,
      timers: c.timers,
    });
    return { c, calls, b, setFail: (v: boolean) => (fail = v) };
  }

  it('sends what was seen once per interval, each id once, sorted', () => {
    const { c, calls, b } = setup();
    b.add([5, 3]);
    c.advance(400);
    b.add([3, 4]);
    expect(calls).toEqual([]);
    c.advance(600);
    expect(calls).toEqual([[3, 4, 5]]);
    b.add([4, 5]);
    c.advance(2000);
    expect(calls).toHaveLength(1);
    b.add([6]);
    c.advance(1000);
    expect(calls).toEqual([[3, 4, 5], [6]]);
  });

  it('drops what the user marked unread while it waited: the batch after that would read it again', () => {
    const { c, calls, b } = setup();
    b.add([7, 8, 9]);
    c.advance(500);
    b.drop([8, 9]);
    c.advance(500);
    expect(calls).toEqual([[7]]);
    expect(b.waiting()).toEqual([]);
  });

  it('at most the contract’s limit per call; the rest with the next interval', () => {
    const { c, calls, b } = setup();
    b.add(Array.from({ length: MAX_IDS + 10 }, (_, i) => i + 1));
    c.advance(1000);
    expect(calls.map((x) => x.length)).toEqual([MAX_IDS]);
    c.advance(1000);
    expect(calls.map((x) => x.length)).toEqual([MAX_IDS, 10]);
  });

  it('a refused batch is forgotten, so the messages go again when seen again', async () => {
    const { c, calls, b, setFail } = setup({ fail: true });
    b.add([1, 2]);
    c.advance(1000);
    await settle();
    setFail(false);
    b.add([2]);
    c.advance(1000);
    expect(calls).toEqual([[1, 2], [2]]);
  });

  it('messages seen just before the view closes still go; nothing after', () => {
    const { c, calls, b } = setup();
    b.add([7]);
    b.dispose();
    expect(calls).toEqual([[7]]);
    b.add([8]);
    c.advance(5000);
    expect(calls).toEqual([[7]]);
  });
});
