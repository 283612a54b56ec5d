/** Completeness ranges: merging, what a GET /messages answer proves, and the stream-gap contract. */
import { describe, expect, it } from 'vitest';
import { addRange, answerSpan, coverageAt, isCovered, markStreamGap, markStreamResumed, NEWEST, OLDEST, rangesOf, recordFetch, streamGap } from '../../../sync/engine/narrow/ranges.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const K = '[["channel",5,false]]';

describe('narrow ranges', () => {
  it('merges ranges that overlap or touch, keeps apart those that do not', () => {
    const db = localStore();
    addRange(db, K, 10, 20);
    addRange(db, K, 30, 40);
    expect(rangesOf(db, K)).toEqual([{ lo: 10, hi: 20 }, { lo: 30, hi: 40 }]);
    addRange(db, K, 21, 25); // touches 20
    expect(rangesOf(db, K)).toEqual([{ lo: 10, hi: 25 }, { lo: 30, hi: 40 }]);
    addRange(db, K, 24, 35); // bridges both
    expect(rangesOf(db, K)).toEqual([{ lo: 10, hi: 40 }]);
    addRange(db, K, 50, NEWEST);
    addRange(db, K, OLDEST, 5);
    addRange(db, K, 12, 15); // inside: no change
    expect(rangesOf(db, K)).toEqual([{ lo: OLDEST, hi: 5 }, { lo: 10, hi: 40 }, { lo: 50, hi: NEWEST }]);
    addRange(db, K, 6, 49);
    expect(rangesOf(db, K)).toEqual([{ lo: OLDEST, hi: NEWEST }]);
    expect(rangesOf(db, 'other')).toEqual([]);
  });

  it('coverageAt answers every probe as isCovered does, from one range read where it can', () => {
    const db = localStore();
    const ends = [OLDEST, 9, 10, 11, 20, 21, 30, 40, 41, NEWEST - 1, NEWEST];
    const layouts: Array<Array<[number, number]>> = [[], [[10, 20]], [[OLDEST, 9], [30, 40]], [[10, 20], [30, NEWEST]], [[OLDEST, NEWEST]]];
    const wrong: string[] = [];
    for (const ranges of layouts) {
      db.prepare('DELETE FROM narrow_ranges').run();
      for (const [lo, hi] of ranges) addRange(db, K, lo, hi);
      for (const at of ends) {
        const covered = coverageAt(db, K, at);
        for (const lo of ends) for (const hi of ends) if (covered(lo, hi) !== isCovered(db, K, lo, hi)) wrong.push(`${JSON.stringify(ranges)} at ${at}: [${lo}, ${hi}]`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers cover what the server walked: found_oldest/newest widen to the ends', () => {
    const db = localStore();
    const base = { includeAnchor: true, foundOldest: false, foundNewest: false };
    expect(answerSpan(db, { ...base, anchor: 100, numBefore: 2, numAfter: 2, ids: [90, 95, 100, 105, 110] })).toEqual({ lo: 90, hi: 110 });
    expect(answerSpan(db, { ...base, anchor: 100, numBefore: 5, numAfter: 0, ids: [90, 95], foundOldest: true })).toEqual({ lo: OLDEST, hi: 100 });
    expect(answerSpan(db, { ...base, anchor: NEWEST, includeAnchor: false, numBefore: 2, numAfter: 0, ids: [7, 8], foundNewest: true })).toEqual({ lo: 7, hi: NEWEST });
    expect(answerSpan(db, { ...base, anchor: OLDEST, includeAnchor: false, numBefore: 0, numAfter: 9, ids: [1, 2], foundNewest: true })).toEqual({ lo: OLDEST, hi: NEWEST });
    // include_anchor=false from the edge of a known range: starts just below it.
    expect(answerSpan(db, { ...base, anchor: 50, includeAnchor: false, numBefore: 3, numAfter: 0, ids: [40, 41, 42] })).toEqual({ lo: 40, hi: 49 });
    // The server says there is more before, yet sent nothing: nothing is proven.
    expect(answerSpan(db, { ...base, anchor: 50, numBefore: 3, numAfter: 0, ids: [] })).toBeUndefined();
  });

  it('a gap clips open-ended ranges; until resumed, answers reaching the newest stay closed', () => {
    const db = localStore({ messages: [eg.streamMessage({ id: 100 }), eg.streamMessage({ id: 200 })] });
    addRange(db, K, 50, NEWEST);
    addRange(db, 'later', 300, NEWEST); // wholly after the gap point: dropped
    markStreamGap(db);
    expect(streamGap(db)).toEqual({ throughId: 200 });
    expect(rangesOf(db, K)).toEqual([{ lo: 50, hi: 200 }]);
    expect(rangesOf(db, 'later')).toEqual([]);
    expect(isCovered(db, K, 60, NEWEST)).toBe(false);
    // During the gap an answer reaching the newest is recorded only through what is cached.
    recordFetch(db, K, { anchor: NEWEST, includeAnchor: false, numBefore: 10, numAfter: 0, foundOldest: false, foundNewest: true, ids: [150, 200] });
    expect(rangesOf(db, K)).toEqual([{ lo: 50, hi: 200 }]);
    markStreamGap(db, { throughId: 500 }); // a second gap keeps the earlier point
    expect(streamGap(db)).toEqual({ throughId: 200 });
    markStreamResumed(db);
    expect(streamGap(db)).toBeUndefined();
    recordFetch(db, K, { anchor: NEWEST, includeAnchor: false, numBefore: 10, numAfter: 0, foundOldest: false, foundNewest: true, ids: [150, 200] });
    expect(rangesOf(db, K)).toEqual([{ lo: 50, hi: NEWEST }]);
  });
});
