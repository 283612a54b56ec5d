/**
 * The presence store (sync/engine/handlers/presence.ts): both `presence` event formats, later
 * timestamps winning, `user_status` events changing only what they carry (empty clears), and what
 * each person shows against a fake clock and the realm's threshold.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseEvent, type ZulipEvent } from '../../../sync/api/index.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { setRealmValue } from '../../../sync/db/queries/realm.js';
import { applyEvents } from '../../../sync/engine/handlers/index.js';
import { presenceView } from '../../../sync/engine/handlers/presence.js';
import * as eg from '../../support/eg.js';

let db: LocalDb;
let changes: ChangeCollector;
function apply(...raw: Array<{ type: string } & Record<string, unknown>>) {
  const events: ZulipEvent[] = raw.map(({ type, ...fields }) => parseEvent(eg.event(type, fields)));
  return applyEvents(db, events, { selfUserId: eg.SELF, logger: { warn: () => undefined } }, changes);
}
const T = 1_800_000_000;
const at = (seconds: number) => presenceView(db, seconds * 1000);

beforeEach(() => {
  db = openLocalDb(':memory:');
  changes = new ChangeCollector();
});

describe('presence events', () => {
  it('stores the modern and the legacy formats; a late older report never turns someone back', () => {
    apply(
      { type: 'presence', presences: { '10': { active_timestamp: T, idle_timestamp: T } } },
      { type: 'presence', user_id: 11, email: 'b@x', server_timestamp: T, presence: { website: { client: 'website', status: 'idle', timestamp: T - 10, pushable: false } } },
      { type: 'presence', presences: { '10': { active_timestamp: T - 500, idle_timestamp: T - 500 } } },
    );
    expect(changes.freeze().areas.has('presence')).toBe(true);
    expect(at(T).map((p) => [p.user_id, p.presence])).toEqual([[10, 'active'], [11, 'idle']]);
    // Past the default 140 s threshold: offline; a realm's own threshold is used when known.
    expect(at(T + 141).map((p) => p.presence)).toEqual(['offline', 'offline']);
    setRealmValue(db, 'server_presence_offline_threshold_seconds', 300);
    expect(at(T + 200).map((p) => p.presence)).toEqual(['active', 'idle']);
  });

  it('user_status changes only the fields it carries; empty values clear them', () => {
    apply({ type: 'user_status', user_id: 12, status_text: 'out', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(at(T)).toEqual([{ user_id: 12, presence: 'offline', status_text: 'out', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }]);
    apply({ type: 'user_status', user_id: 12, status_text: '' });
    expect(at(T)[0]).toMatchObject({ status_text: '', emoji_name: 'car' });
    apply({ type: 'user_status', user_id: 12, emoji_name: '', emoji_code: '', reaction_type: '' });
    expect(at(T)).toEqual([]);
  });
});
