/**
 * The store's event handlers against the reference server: register hamlet's queue, cache his
 * recent messages, let others act (send, edit, move, resolve, react, delete, flag), apply the
 * events the server really sent, then check every cached message equals `GET /messages`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnection, getEvents, getMessages, registerQueue, type Message, type RegisterResponse } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getStoredMessages, upsertMessages } from '../../../sync/db/queries/messages.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { applyEvents } from '../../../sync/engine/handlers/index.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';

const FETCH = { apply_markdown: true, client_gravatar: false, allow_empty_topic_name: true } as const;

let t: TestServer;
let conn: ApiConnection;
let db: LocalDb;
let reg: RegisterResponse;
let lastEventId: number;
const warnings: string[] = [];

/** Flag order is not part of the contract (and real Zulip appends `wildcard_mentioned` last). */
const normalized = (m: Message) => ({ ...m, flags: [...m.flags].sort() });

async function pump(): Promise<ChangeCollector> {
  const changes = new ChangeCollector();
  const { events } = await getEvents(conn, { queue_id: reg.queue_id ?? '', last_event_id: lastEventId, dont_block: true });
  db.transaction(() => applyEvents(db, events, { selfUserId: reg.user_id ?? 0, logger: { warn: (m) => warnings.push(m) } }, changes))();
  for (const e of events) if (e.id !== null) lastEventId = Math.max(lastEventId, e.id);
  return changes;
}

async function expectCacheMatchesServer(): Promise<void> {
  const ids = (db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[]);
  const server = await getMessages(conn, { message_ids: ids, ...FETCH });
  const local = getStoredMessages(db, ids);
  expect(local.map(normalized)).toEqual(server.messages.map(normalized));
}

async function send(who: string, to: string, topic: string, content: string): Promise<number> {
  const r = await t.as(who).post('/messages', { type: 'stream', to, topic, content });
  expect(r.json.result).toBe('success');
  return r.json.id as number;
}

beforeAll(async () => {
  t = await startTestServer();
  await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }, { name: 'Denmark' }] });
  const email = 'hamlet@example.com';
  conn = new ApiConnection({ realmUrl: t.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
  reg = await registerQueue(conn, { apply_markdown: true, client_gravatar: false });
  lastEventId = reg.last_event_id;
  db = openLocalDb(':memory:');
  storeRegisterSnapshot(db, reg, new ChangeCollector());
  const page = await getMessages(conn, { anchor: 'newest', num_before: 300, num_after: 0, ...FETCH });
  upsertMessages(db, page.messages, new ChangeCollector());
});

afterAll(async () => {
  db?.close();
  await t?.close();
});

describe('event handlers against the reference server', () => {
  it('caches the snapshot and the fetched page exactly as the server returns them', async () => {
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBeGreaterThan(0);
    await expectCacheMatchesServer();
  });

  it('new messages, with their flags and mentions', async () => {
    const a = await send('iago', 'Verona', 'sync test', 'hello @**King Hamlet** see https://example.com');
    const b = await send('othello', 'Denmark', '', 'the empty topic');
    const dm = await t.as('othello').post('/messages', { type: 'direct', to: JSON.stringify([t.userId('hamlet')]), content: 'a DM' });
    const changes = await pump();
    expect([...changes.added]).toEqual(expect.arrayContaining([a, b, dm.json.id as number]));
    const [m] = getStoredMessages(db, [a]);
    expect(m?.flags).toContain('mentioned');
    expect(db.prepare('SELECT has_link, topic FROM messages WHERE id = ?').get(a)).toEqual({ has_link: 1, topic: 'sync test' });
    expect(db.prepare('SELECT topic FROM messages WHERE id = ?').pluck().get(b)).toBe('');
    await expectCacheMatchesServer();
  });

  it('content edits, topic moves, resolving and channel moves', async () => {
    const a = await send('iago', 'Verona', 'moving', 'first');
    const b = await send('iago', 'Verona', 'moving', 'second');
    await pump();
    expect((await t.as('iago').patch(`/messages/${a}`, { content: 'first, edited' })).json.result).toBe('success');
    expect((await t.as('iago').patch(`/messages/${a}`, { topic: 'moved', propagate_mode: 'change_all' })).json.result).toBe('success');
    expect((await t.as('iago').patch(`/messages/${b}`, { topic: '✔ moved', propagate_mode: 'change_all' })).json.result).toBe('success');
    const changes = await pump();
    expect(changes.updated.has(a) && changes.updated.has(b)).toBe(true);
    await expectCacheMatchesServer();
    const [ma] = getStoredMessages(db, [a]);
    expect(ma?.edit_history?.length).toBe(3);
    expect(ma?.last_edit_timestamp).toBeDefined();

    const denmark = channelId(t, 'Denmark');
    const moved = await t.as('iago').patch(`/messages/${a}`, { stream_id: denmark, propagate_mode: 'change_all' });
    expect(moved.json.result).toBe('success');
    await pump();
    expect(db.prepare('SELECT channel_id FROM messages WHERE id = ?').pluck().get(b)).toBe(denmark);
    await expectCacheMatchesServer();
  });

  it('reactions, flags and deletions', async () => {
    const a = await send('iago', 'Verona', 'reacting', 'react to me');
    const b = await send('iago', 'Verona', 'reacting', 'delete me');
    await pump();
    await t.as('othello').post(`/messages/${a}/reactions`, { emoji_name: 'smile' });
    await t.as('hamlet').post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    await t.as('hamlet').post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' });
    await t.as('hamlet').post('/messages/flags', { messages: [b], op: 'remove', flag: 'read' });
    const changes = await pump();
    expect(changes.updated.has(a)).toBe(true);
    expect(db.prepare('SELECT has_reaction FROM messages WHERE id = ?').pluck().get(a)).toBe(1);
    await expectCacheMatchesServer();

    await t.as('iago').delete(`/messages/${b}`);
    await t.as('othello').delete(`/messages/${a}/reactions`, { emoji_name: 'smile' });
    const after = await pump();
    expect(after.removed.has(b)).toBe(true);
    expect(getStoredMessages(db, [b])).toEqual([]);
    await expectCacheMatchesServer();
    expect(warnings).toEqual([]);
  });
});
