/**
 * 0007-outbox-kind-names: rows written under the kinds' old names (a version-6 database, as an
 * older app left it) are renamed to the API operations' names, then read and sent under them.
 * The old names here are what older apps wrote: never renamed with the code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiConnection, topicKey } from '../../../sync/api/index.js';
import { KIND_RENAMES_0007 } from '../../../sync/db/migrations/0007-outbox-kind-names.js';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { migrate, openLocalDb, schemaVersion } from '../../../sync/db/open.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { allKinds, KIND_NAMES } from '../../../sync/outbox/registry.js';
import { OutboxStore } from '../../../sync/outbox/store.js';
import { channelId, startTestServer } from '../../server/harness.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { fakeTime } from '../outbox/helpers.js';

const insertRow = (db: Database.Database, kind: string, entityKey: string, args: unknown, base: unknown = null, state = 'queued') =>
  db
    .prepare(
      `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, attempts, next_attempt_at, deadline_at, last_error, created_at, updated_at, history)
       VALUES (?, 1, ?, ?, ?, ?, 0, NULL, NULL, NULL, 1, 1, '[]')`,
    )
    .run(kind, entityKey, JSON.stringify(args), JSON.stringify(base), state);

describe('migration 0007-outbox-kind-names', () => {
  it('renames every old kind to one this app knows; an unknown kind and the rows themselves stay as they were', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 6);
    const old = Object.keys(KIND_RENAMES_0007);
    old.forEach((k, i) => insertRow(db, k, `entity:${i}`, {}, null, i % 2 === 0 ? 'queued' : 'done'));
    insertRow(db, 'from_the_future', 'entity:future', {});
    const before = db.prepare<[], Record<string, unknown>>('SELECT * FROM outbox ORDER BY id').all();

    migrate(db, MIGRATIONS, 7);

    expect(schemaVersion(db)).toBe(7);
    const after = db.prepare<[], Record<string, unknown>>('SELECT * FROM outbox ORDER BY id').all();
    expect(after.map((r) => r['kind'])).toEqual([...old.map((k) => KIND_RENAMES_0007[k]), 'from_the_future']);
    expect(after.map(({ kind: _k, ...rest }) => rest)).toEqual(before.map(({ kind: _k, ...rest }) => rest));
    // Every kind this app knows is the new name of an old one, and the old names are gone.
    // Every old name goes to a kind this app knows (kinds added since had no old name).
    expect(KIND_NAMES).toEqual(expect.arrayContaining(Object.values(KIND_RENAMES_0007)));
    expect(KIND_NAMES.some((k) => old.includes(k))).toBe(false);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('an old database’s queued rows are read and sent under the new names', async () => {
    const t = await startTestServer();
    const proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-0007-'));
    const file = path.join(dir, 'account.db');
    const email = 'iago@example.com';
    const conn = new ApiConnection({ realmUrl: proxy.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 2_000 });
    try {
      // As an older app left it: a followed topic and a snippet made offline, both still queued.
      const raw = new Database(file);
      migrate(raw, MIGRATIONS, 6);
      const verona = channelId(t, 'Verona');
      insertRow(raw, 'user_topic_set', `user_topic:${verona}:${topicKey('castle')}`, { stream_id: verona, topic: 'castle', visibility_policy: 3 });
      raw.prepare('INSERT INTO outbox_temp_ids DEFAULT VALUES').run();
      insertRow(raw, 'saved_snippet_create', 'snippet:tmp-1', { tmp_id: 'tmp-1', title: 'from an older app', content: 'still queued' }, { enqueued_at: Math.floor(t.clock.now() / 1000), after_id: 0 });
      raw.close();

      const db = openLocalDb(file);
      const time = fakeTime(t.clock.now());
      const store = new OutboxStore(db, allKinds(), { now: time.now });
      expect(store.all().map((r) => [r.kind, r.state])).toEqual([
        ['update_user_topic', 'queued'],
        ['create_saved_snippet', 'queued'],
      ]);
      const pusher = new OutboxPusher({ store, conn, seams: time.seams, concurrency: 4 });
      pusher.start();
      await pusher.idle();
      await pusher.stop();

      expect(store.all().map((r) => [r.kind, r.state])).toEqual([
        ['update_user_topic', 'done'],
        ['create_saved_snippet', 'done'],
      ]);
      expect(proxy.log.filter((l) => l.method === 'POST' && l.path.startsWith('/api/v1/user_topics')).length).toBe(1);
      expect(proxy.log.filter((l) => l.method === 'POST' && l.path.startsWith('/api/v1/saved_snippets')).length).toBe(1);
      db.close();
    } finally {
      await conn.close();
      await proxy.close();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
