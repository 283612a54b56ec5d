/**
 * A first sign-in (`registerAndSync(..., 'initial')`) to the large organisation at a small scale
 * (server/demo/large-org.ts: 1,000 unread over hundreds of topics, a cache of the newest 300
 * messages): register's unread set and the first history batches are written many rows a
 * statement with the summaries paused and rebuilt (db/queries/summaries.ts). Afterwards every
 * topic's and DM conversation's unread count and mentions equal the server's own answer, the
 * server rows are exactly the ids it listed, and the summary tables equal a rebuild from the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, registerQueue, silentLogger, topicKey, type RegisterResponse } from '../../../sync/api/index.js';
import { SUMMARY_REBUILD } from '../../../sync/db/migrations/0009-unread-summary.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { setAccount, setEngineSetting } from '../../../sync/db/queries/state.js';
import { dmKeyOfIds, NO_EXCLUSIONS, unreadDms, unreadTopics } from '../../../sync/db/queries/unreads.js';
import { EVENT_TYPES, FETCH_EVENT_TYPES, registerAndSync } from '../../../sync/engine/initial-sync.js';
import { LARGE_ORG_EMAIL } from '../../../server/demo/large-org.js';
import { startServer, type RunningServer } from '../../../server/index.js';

const CACHED = 300;
let server: RunningServer;
let db: LocalDb;
let truth: NonNullable<RegisterResponse['unread_msgs']>;
let self: number;

beforeAll(async () => {
  server = await startServer({ largeOrg: { scale: 0.01 }, schedulerIntervalMs: 0, config: { rateLimit: false } });
  const conn = new ApiConnection({ realmUrl: server.url, email: LARGE_ORG_EMAIL, apiKey: server.apiKey(LARGE_ORG_EMAIL), logger: silentLogger, timeoutMs: 30_000 });
  db = openLocalDb(':memory:');
  setAccount(db, { realm_url: server.url, email: LARGE_ORG_EMAIL });
  setEngineSetting(db, 'backfill_depth', CACHED);
  await registerAndSync({ conn, db, now: Date.now }, 'initial');
  const reg = await registerQueue(conn, { event_types: EVENT_TYPES, fetch_event_types: FETCH_EVENT_TYPES, apply_markdown: true, client_gravatar: false });
  truth = reg.unread_msgs!;
  self = reg.user_id!;
});
afterAll(async () => {
  db?.close();
  await server?.close();
});

/** Per group key: the number of unread ids and how many of them the server lists as mentions. */
function serverGroups(): Map<string, { count: number; mentions: number }> {
  const mentioned = new Set(truth.mentions);
  const out = new Map<string, { count: number; mentions: number }>();
  const add = (key: string, ids: readonly number[]) => {
    const g = out.get(key) ?? { count: 0, mentions: 0 };
    out.set(key, { count: g.count + ids.length, mentions: g.mentions + ids.filter((id) => mentioned.has(id)).length });
  };
  for (const s of truth.streams) add(`${s.stream_id}:${topicKey(s.topic)}`, s.unread_message_ids);
  for (const p of truth.pms) add(dmKeyOfIds([p.other_user_id], self), p.unread_message_ids);
  for (const h of truth.huddles) add(dmKeyOfIds(h.user_ids_string.split(',').map(Number), self), h.unread_message_ids);
  return out;
}

describe('first sign-in to a large organisation', () => {
  it('counts every topic and DM conversation as the server does', () => {
    const stored = new Map<string, { count: number; mentions: number }>();
    for (const t of unreadTopics(db, NO_EXCLUSIONS)) stored.set(`${t.channel_id}:${t.topic_key}`, { count: t.count, mentions: t.personal_mentions + t.wildcard_mentions });
    for (const d of unreadDms(db, NO_EXCLUSIONS)) stored.set(d.dm_key, { count: d.count, mentions: d.personal_mentions + d.wildcard_mentions });
    const expected = serverGroups();
    // The scale gives what the test is about: many rows, many topics, some DMs, some mentions.
    expect([...expected.values()].reduce((n, g) => n + g.count, 0)).toBe(1_000);
    expect(expected.size).toBeGreaterThan(200);
    expect(truth.pms.length).toBeGreaterThan(0);
    expect(truth.mentions.length).toBeGreaterThan(0);
    expect(stored).toEqual(expected);
  });

  it('keeps exactly the listed ids as server rows, each where the server put it', () => {
    const rows = db.prepare<[], { message_id: number; channel_id: number | null; topic: string; dm_key: string | null }>('SELECT message_id, channel_id, topic, dm_key FROM server_unreads ORDER BY message_id').all();
    const expected = [
      ...truth.streams.flatMap((s) => s.unread_message_ids.map((id) => ({ message_id: id, channel_id: s.stream_id, topic: s.topic, dm_key: null }))),
      ...truth.pms.flatMap((p) => p.unread_message_ids.map((id) => ({ message_id: id, channel_id: null, topic: '', dm_key: dmKeyOfIds([p.other_user_id], self) }))),
      ...truth.huddles.flatMap((h) => h.unread_message_ids.map((id) => ({ message_id: id, channel_id: null, topic: '', dm_key: dmKeyOfIds(h.user_ids_string.split(',').map(Number), self) }))),
    ].sort((a, b) => a.message_id - b.message_id);
    expect(rows).toEqual(expected);
  });

  it('leaves summaries equal to a rebuild from the rows', () => {
    const tables = () => ({
      unread: db.prepare('SELECT * FROM unread_summary ORDER BY channel_id, topic_key, dm_key').all(),
      topics: db.prepare('SELECT * FROM cached_topics ORDER BY channel_id, topic_key').all(),
    });
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(CACHED);
    const kept = tables();
    db.exec(SUMMARY_REBUILD);
    expect(kept.topics.length).toBeGreaterThan(50);
    expect(tables()).toEqual(kept);
  });
});
