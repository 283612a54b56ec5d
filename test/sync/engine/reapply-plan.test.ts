/**
 * Re-applying pending rows after an event batch reads only the rows on the touched messages and
 * the rows of the kinds asked for (two index probes), never every outbox row; and it finds exactly
 * the rows the plain OR query finds.
 */
import { describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { REAPPLY_TOUCHED_SQL } from '../../../sync/db/queries/outbox.js';

const REFERENCE = `SELECT id, kind, args, base FROM outbox WHERE state NOT IN ('done', 'discarded')
  AND (entity_key IN (SELECT 'message:' || value FROM json_each(?)) OR kind IN (SELECT value FROM json_each(?))) ORDER BY id`;

describe('reapplyTouched query', () => {
  it('probes outbox_live_by_entity and outbox_live_by_kind, and scans no table', () => {
    const db = openLocalDb(':memory:');
    const details = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${REAPPLY_TOUCHED_SQL}`).all('[1]', '["update_message_flags"]').map((r) => r.detail);
    expect(details).toContain('SEARCH outbox USING INDEX outbox_live_by_entity (entity_key=?)');
    expect(details).toContain('SEARCH outbox USING INDEX outbox_live_by_kind (kind=?)');
    expect(details.some((d) => /^SCAN outbox/.test(d))).toBe(false);
    db.exec('DROP INDEX outbox_live_by_kind');
    expect(() => db.prepare(REAPPLY_TOUCHED_SQL)).toThrow(/no such index/);
    db.close();
  });

  it('answers as the OR query does (touched messages, kinds, both, done rows left out, no duplicates)', () => {
    const db = openLocalDb(':memory:');
    const insert = db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES (?, 1, ?, '{}', ?, 1, 1)");
    const states = ['queued', 'sending', 'failed', 'done', 'discarded', 'retry_wait'];
    for (let i = 0; i < 120; i++) {
      const kind = ['update_message_content', 'update_message_flags', 'update_user_topic', 'update_message_move'][i % 4]!;
      insert.run(kind, kind === 'update_message_flags' ? `flags:${i % 2 ? 'read' : 'starred'}` : `message:${i % 17}`, states[i % states.length]!);
    }
    const cases: Array<[number[], string[]]> = [
      [[1, 2, 3], []],
      [[], ['update_message_flags']],
      [[4, 5], ['update_message_flags', 'update_message_content']],
      [[], []],
      [[99], ['nothing']],
    ];
    for (const [ids, kinds] of cases) {
      const args = [JSON.stringify(ids), JSON.stringify(kinds)];
      expect(db.prepare(REAPPLY_TOUCHED_SQL).all(...args)).toEqual(db.prepare(REFERENCE).all(...args));
    }
    db.close();
  });
});
