/** The raw text kept for offline edits goes with its message when the cache deletes it. */
import { describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { deleteMessages } from '../../../sync/db/queries/messages.js';
import { getRawContent, putRawContent } from '../../../sync/db/queries/raw.js';
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
});
