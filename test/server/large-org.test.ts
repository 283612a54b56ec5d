/**
 * The large-organisation seed (server/demo/large-org.ts) at a small scale: the same seed gives the
 * same rows, another seed other rows, and the counts per kind are the ones the scale asks for
 * (the benchmark runs it at scale 1; CI checks the seeder here without running the benchmark).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_ORG_EMAIL, largeOrgShape, seedLargeOrg } from '../../server/demo/large-org.js';
import { startServer, type RunningServer } from '../../server/index.js';

const SCALE = 0.001;
const TABLES = [
  'SELECT id, email, full_name, role, is_bot, api_key, date_joined, timezone FROM users ORDER BY id',
  'SELECT * FROM channels ORDER BY id',
  'SELECT * FROM recipients ORDER BY id',
  'SELECT * FROM subscriptions ORDER BY user_id, channel_id',
  'SELECT * FROM messages ORDER BY id',
  'SELECT * FROM user_messages ORDER BY user_id, message_id',
];

function rowsHash(s: RunningServer): string {
  const h = createHash('sha256');
  for (const sql of TABLES) for (const row of s.state.db.prepare(sql).raw().iterate()) h.update(JSON.stringify(row));
  return h.digest('hex');
}

let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  a = await startServer({ largeOrg: { scale: SCALE }, schedulerIntervalMs: 0 });
  b = await startServer({ largeOrg: { scale: SCALE }, schedulerIntervalMs: 0 });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const count = (s: RunningServer, sql: string, ...params: unknown[]) => Number(s.state.db.prepare(sql).pluck().get(...params));

describe('large-organisation seed', () => {
  it('is deterministic: the same seed gives the same rows, another seed other rows', async () => {
    expect(rowsHash(a)).toBe(rowsHash(b));
    const other = await startServer({ schedulerIntervalMs: 0 });
    // The seed drops and rebuilds indexes: the schema stays the one a fresh server has.
    const schema = (s: RunningServer) => s.state.db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
    const fresh = schema(other);
    try {
      other.state.db.transaction(() => seedLargeOrg(other.state, { scale: SCALE, seed: 7 }))();
      expect(rowsHash(other)).not.toBe(rowsHash(a));
      expect(schema(a)).toEqual(fresh);
      expect(schema(other)).toEqual(fresh);
    } finally {
      await other.close();
    }
  });

  it('has the counts the scale asks for', () => {
    const shape = largeOrgShape(SCALE);
    expect(shape).toMatchObject({ users: 10, channels: 1, topics: 50, messages: 1000, dms: 50, unread: 100, mentions: 2, starred: 3 });
    const self = a.state.db.prepare('SELECT id FROM users WHERE email = ?').pluck().get(LARGE_ORG_EMAIL) as number;
    expect(count(a, 'SELECT count(*) FROM users')).toBe(shape.users);
    expect(count(a, 'SELECT count(*) FROM channels')).toBe(shape.channels);
    expect(count(a, 'SELECT count(*) FROM messages')).toBe(shape.messages);
    expect(count(a, "SELECT count(*) FROM messages WHERE type = 'private'")).toBe(shape.dms);
    expect(count(a, 'SELECT count(*) FROM (SELECT DISTINCT channel_id, topic_key FROM messages WHERE channel_id IS NOT NULL)')).toBe(shape.topics);
    expect(count(a, "SELECT count(*) FROM recipients WHERE type = 'dm'")).toBe(shape.dmPairs);
    expect(count(a, 'SELECT count(*) FROM messages_fts')).toBe(shape.messages);
    // The benchmark's user: in every channel, with its unread, mentioning and starred messages.
    expect(count(a, 'SELECT count(*) FROM subscriptions WHERE user_id = ?', self)).toBe(shape.channels);
    expect(count(a, 'SELECT count(*) FROM user_messages WHERE user_id = ? AND (flags & 1) = 0', self)).toBe(shape.unread);
    expect(count(a, 'SELECT count(*) FROM user_messages WHERE user_id = ? AND (flags & 2) != 0', self)).toBe(shape.starred);
    expect(count(a, 'SELECT count(*) FROM user_messages WHERE user_id = ? AND (flags & 24) != 0', self)).toBe(shape.mentions);
    // Every message has its sender's row; every channel message the benchmark user's.
    expect(count(a, 'SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = m.sender_id)')).toBe(0);
    expect(count(a, "SELECT count(*) FROM messages m WHERE m.type = 'stream' AND NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = ?)", self)).toBe(0);
  });

  it('at full scale asks for the organisation of the issue', () => {
    expect(largeOrgShape(1)).toMatchObject({ users: 10_000, channels: 500, topics: 50_000, messages: 1_000_000, dmPairs: 300, unread: 100_000 });
  });
});
