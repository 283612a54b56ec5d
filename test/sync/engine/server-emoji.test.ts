/**
 * The server's emoji names (register's `server_emoji_data_url`): fetched from the reference server
 * once per URL, kept for offline, and a bad file or another origin never replaces what is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, registerQueue } from '../../../sync/api/index.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { openLocalDb } from '../../../sync/db/open.js';
import { setRealmValue } from '../../../sync/db/queries/realm.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { FETCH_EVENT_TYPES } from '../../../sync/engine/initial-sync.js';
import { refreshServerEmojiNames, serverEmojiPathToFetch, storedServerEmojiNames } from '../../../sync/engine/server-emoji.js';
import { startTestServer, type TestServer } from '../../server/harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function connection(realmUrl = t.url): ApiConnection {
  const email = 'hamlet@example.com';
  return new ApiConnection({ realmUrl, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
}

describe("the server's emoji names", () => {
  it('are fetched from the URL register gives, stored with it, and not fetched again for the same URL', async () => {
    const conn = connection();
    const db = openLocalDb(':memory:');
    storeRegisterSnapshot(db, await registerQueue(conn, { event_types: ['message'], fetch_event_types: [...FETCH_EVENT_TYPES] }), new ChangeCollector());
    expect(storedServerEmojiNames(db)).toBeNull();
    expect(serverEmojiPathToFetch(db, t.url)).toEqual({ url: `${t.url}/static/generated/emoji/emoji_api.json`, path: '/static/generated/emoji/emoji_api.json' });

    const changes = new ChangeCollector();
    expect(await refreshServerEmojiNames(conn, db, changes)).toBe(true);
    expect(changes.freeze().areas).toContain('realm');
    const names = storedServerEmojiNames(db)!;
    expect(names['1f44d']?.[0]).toBe('+1');
    expect(names['1f389']).toContain('tada');
    // Same URL: nothing to fetch (real Zulip's name carries a content hash).
    expect(serverEmojiPathToFetch(db, t.url)).toBeUndefined();
    expect(await refreshServerEmojiNames(conn, db, new ChangeCollector())).toBe(false);
  });

  it('a bad file, an error status or another origin leaves the stored table', async () => {
    const conn = connection();
    const db = openLocalDb(':memory:');
    setRealmValue(db, 'server_emoji_data_url', '/static/generated/emoji/emoji_api.json');
    await refreshServerEmojiNames(conn, db, new ChangeCollector());
    const before = storedServerEmojiNames(db);
    expect(before?.['1f44d']).toBeDefined();

    // Another origin is never asked.
    setRealmValue(db, 'server_emoji_data_url', 'https://cdn.example.invalid/emoji_api.json');
    expect(serverEmojiPathToFetch(db, t.url)).toBeUndefined();
    // A path the server answers with an error (JSON envelope 404).
    setRealmValue(db, 'server_emoji_data_url', `${t.url}/static/generated/emoji/missing.json`);
    await expect(refreshServerEmojiNames(conn, db, new ChangeCollector())).rejects.toThrow(/HTTP 404/);
    // Answers that are not the table: not JSON, JSON of another shape.
    setRealmValue(db, 'server_emoji_data_url', '/static/generated/emoji/emoji_api.v2.json');
    for (const [body, error] of [['<html>', /not JSON/], ['{"names": {}}', /unexpected shape/], ['{"code_to_names": {"1f44d": "+1"}}', /unexpected shape/]] as const) {
      const fake = new ApiConnection({ realmUrl: t.url, email: 'hamlet@example.com', apiKey: 'k', logger: { warn: () => undefined }, bytesTransport: () => Promise.resolve({ status: 200, headers: {}, body: Buffer.from(body) }) });
      await expect(refreshServerEmojiNames(fake, db, new ChangeCollector())).rejects.toThrow(error);
    }
    expect(storedServerEmojiNames(db)).toEqual(before);
  });
});
