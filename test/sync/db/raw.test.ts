/** The raw text kept for offline edits goes with its message when the cache deletes it, and stays within its budget. */
import { describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { deleteMessages } from '../../../sync/db/queries/messages.js';
import { getRawContent, putRawContent, trimRawContent } from '../../../sync/db/queries/raw.js';
import { ChangeCollector } from '../../../sync/db/changes.js';

describe('message_raw', () => {
  it('is deleted with its message, and only with it', () => {
    const db = openLocalDb(':memory:');
    putRawContent(db, 7, 'gone soon', 1);
    putRawContent(db, 8, 'stays', 1);
    deleteMessages(db, [7], new ChangeCollector());
    expect(getRawContent(db, 7)).toBeUndefined();
    expect(getRawContent(db, 8)).toBe('stays');
    db.close();
  });

  it('is trimmed to a row count, the oldest messages first', () => {
    const db = openLocalDb(':memory:');
    for (const id of [5, 1, 4, 2, 3]) putRawContent(db, id, `text ${id}`, 1);
    expect(trimRawContent(db, 3, 1_000_000)).toBe(2);
    expect([1, 2, 3, 4, 5].map((id) => getRawContent(db, id))).toEqual([undefined, undefined, 'text 3', 'text 4', 'text 5']);
    expect(trimRawContent(db, 3, 1_000_000)).toBe(0);
    db.close();
  });

  it('is trimmed to a byte budget of UTF-8 text, the oldest messages first', () => {
    const db = openLocalDb(':memory:');
    putRawContent(db, 1, 'a'.repeat(10), 1);
    putRawContent(db, 2, 'é'.repeat(5), 1); // 10 bytes in UTF-8
    putRawContent(db, 3, 'c'.repeat(10), 1);
    expect(trimRawContent(db, 100, 20)).toBe(1);
    expect(getRawContent(db, 1)).toBeUndefined();
    expect(getRawContent(db, 2)).toBe('é'.repeat(5));
    expect(trimRawContent(db, 100, 19)).toBe(1);
    expect(getRawContent(db, 2)).toBeUndefined();
    expect(getRawContent(db, 3)).toBe('c'.repeat(10));
    db.close();
  });
});
