/**
 * The realm's custom emoji in the store: register's `realm_emoji` and the `realm_emoji` events the
 * reference server really sends, read back by the `realmEmoji` query (offline: from the store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, getEvents, registerQueue } from '../../../sync/api/index.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { openLocalDb } from '../../../sync/db/open.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { applyEvents } from '../../../sync/engine/handlers/index.js';
import { EVENT_TYPES, FETCH_EVENT_TYPES } from '../../../sync/engine/initial-sync.js';
import { SessionQueries } from '../../../sync/engine/session-queries.js';
import { addRealmEmoji } from '../../../server/model/realm-emoji.js';
import { discPng } from '../../../server/demo/emoji-images.js';
import { startTestServer, type TestServer } from '../../server/harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('custom emoji in the store', () => {
  it('register fills them, a realm_emoji event replaces them, the query lists them by name', async () => {
    const email = 'hamlet@example.com';
    const conn = new ApiConnection({ realmUrl: t.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
    const reg = await registerQueue(conn, { event_types: [...EVENT_TYPES], fetch_event_types: [...FETCH_EVENT_TYPES], apply_markdown: true, client_gravatar: false });
    const db = openLocalDb(':memory:');
    storeRegisterSnapshot(db, reg, new ChangeCollector());
    const q = new SessionQueries(db);
    expect(q.realmEmoji()).toEqual([
      { id: '2', name: 'party_parrot', source_url: '/user_avatars/2/emoji/images/2.png', deactivated: false },
      { id: '1', name: 'shipit', source_url: '/user_avatars/2/emoji/images/1.png', deactivated: false },
    ]);

    addRealmEmoji(t.server.state, t.userId('iago'), 'alas', { mimeType: 'image/png', data: discPng([1, 2, 3], 8) });
    const { events } = await getEvents(conn, { queue_id: reg.queue_id ?? '', last_event_id: reg.last_event_id, dont_block: true });
    const changes = new ChangeCollector();
    const warnings: string[] = [];
    db.transaction(() => applyEvents(db, events, { selfUserId: reg.user_id ?? 0, logger: { warn: (m) => warnings.push(m) } }, changes))();
    expect(warnings).toEqual([]);
    expect(changes.freeze().areas).toContain('realm');
    expect(q.realmEmoji().map((e) => e.name)).toEqual(['alas', 'party_parrot', 'shipit']);
  });
});
