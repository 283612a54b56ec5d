/**
 * The account session against the reference server on loopback: initial sync, live events,
 * resuming the stored queue exactly where the last applied batch left it, expired queues,
 * credentials refused, and "X is editing".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type Transport } from '../../../sync/api/index.js';
import { getStoredMessage, newestStoredMessageId, storedMessageCount } from '../../../sync/db/queries/messages.js';
import { getQueuePosition } from '../../../sync/db/queries/state.js';
import {
  applyChangeSet,
  narrowChangeSetSchema,
  narrowSnapshotSchema,
  queries,
  sessionStatus,
  type NarrowSnapshot,
} from '../../../sync/protocol/index.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
const dirs: Array<() => void> = [];
const transports: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  for (const c of transports) await c();
  for (const d of dirs) d();
});

function dir(): string {
  const d = tempDir();
  dirs.push(d.cleanup);
  return d.dir;
}

/** A transport that records every request path (with its query). */
function recording(): { transport: Transport; paths: string[] } {
  const inner = createUndiciTransport();
  transports.push(inner.close);
  const paths: string[] = [];
  return {
    paths,
    transport: (req) => {
      paths.push(`${req.method} ${new URL(req.url).pathname.replace('/api/v1', '')}${new URL(req.url).search}`);
      return inner.transport(req);
    },
  };
}

async function send(who: string, channel: string, topic: string, content: string): Promise<number> {
  const r = await t.as(who).post('/messages', { type: 'channel', to: channel, topic, content });
  expect(r.status).toBe(200);
  return r.json.id as number;
}

describe('AccountSession', () => {
  it('syncs, goes live, and applies new messages from the event stream', async () => {
    const s = openSession(t, dir());
    const statuses: string[] = [];
    s.onStatus((st) => {
      expect(sessionStatus.safeParse(st).success).toBe(true);
      statuses.push(st.state);
    });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    expect(statuses).toContain('syncing');
    expect(storedMessageCount(s.db)).toBeGreaterThan(0);
    const server = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] });
    const newest = (server.json.messages as Array<{ id: number }>)[0]!.id;
    expect(newestStoredMessageId(s.db)).toBe(newest);

    const id = await send('iago', 'Verona', 'session test', 'hello **there**');
    await until(() => getStoredMessage(s.db, id) !== undefined, 10_000, 'the new message');
    expect(getStoredMessage(s.db, id)?.content).toContain('<strong>there</strong>');
    expect(s.queries.channels().find((c) => c.name === 'Verona')?.topics.some((tp) => tp.topic === 'session test')).toBe(true);
    await s.close();
  });

  it('a channel counts the unreads of its topics that are not muted, as Zulip does', async () => {
    const s = openSession(t, dir());
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const verona = s.queries.channels().find((c) => c.name === 'Verona')!;
    const muted = await t.as('hamlet').post('/user_topics', { stream_id: verona.channel_id, topic: 'count muted', visibility_policy: 1 });
    expect(muted.status).toBe(200);
    const before = verona.unread_count;
    const ids = [await send('iago', 'Verona', 'count muted', 'one'), await send('iago', 'Verona', 'count muted', 'two'), await send('iago', 'Verona', 'count plain', 'three')];
    await until(() => ids.every((id) => getStoredMessage(s.db, id) !== undefined), 10_000, 'the new messages');
    await until(() => s.queries.channels().find((c) => c.name === 'Verona')!.topics.find((tp) => tp.topic === 'count muted')?.visibility_policy === 1, 10_000, 'the muted topic');
    const after = s.queries.channels().find((c) => c.name === 'Verona')!;
    expect(after.topics.find((tp) => tp.topic === 'count muted')?.unread_count).toBe(2);
    expect(after.unread_count).toBe(before + 1);
    await s.close();
  });

  it('a restart resumes the stored queue exactly where the last committed batch left it', async () => {
    const d = dir();
    const a = openSession(t, d);
    a.start();
    await until(() => a.status.state === 'live', 10_000, 'live');
    const first = await send('iago', 'Verona', 'resume', 'one');
    await until(() => getStoredMessage(a.db, first) !== undefined);
    await a.close(); // "killed" between batches: what was committed is all that counts
    const a2 = openSession(t, d);
    const stored = getQueuePosition(a2.db)!;
    await a2.close();

    const second = await send('iago', 'Verona', 'resume', 'two');
    const rec = recording();
    const b = openSession(t, d, 'hamlet', { transport: rec.transport });
    b.start();
    await until(() => getStoredMessage(b.db, second) !== undefined, 10_000, 'the message sent while closed');
    expect(rec.paths.filter((p) => p.startsWith('POST /register'))).toEqual([]);
    const firstPoll = rec.paths.find((p) => p.startsWith('GET /events'))!;
    const q = new URLSearchParams(firstPoll.split('?')[1]);
    expect(q.get('queue_id')).toBe(stored.queue_id);
    expect(Number(q.get('last_event_id'))).toBe(stored.last_event_id);
    expect(q.get('dont_block')).toBe('true');
    await b.close();
  });

  it('an expired queue re-registers and backfills the gap (new, edited and deleted messages)', async () => {
    const d = dir();
    const a = openSession(t, d);
    a.start();
    await until(() => a.status.state === 'live', 10_000, 'live');
    const edited = await send('iago', 'Verona', 'gap', 'before');
    const deleted = await send('iago', 'Verona', 'gap', 'doomed');
    await until(() => getStoredMessage(a.db, deleted) !== undefined);
    await a.close();

    expect((await t.as('iago').patch(`/messages/${edited}`, { content: 'after' })).status).toBe(200);
    // Sent before the delete: the reference server reuses the highest id once it is deleted.
    const added = await send('iago', 'Verona', 'gap', 'new');
    expect((await t.as('iago').delete(`/messages/${deleted}`)).status).toBe(200);
    t.clock.advance(700_000); // past the idle-queue timeout: the server forgets the queue

    const b = openSession(t, d);
    b.start();
    await until(() => getStoredMessage(b.db, added) !== undefined, 10_000, 'the gap backfill');
    await until(() => b.status.state === 'live', 10_000, 'live');
    expect(getStoredMessage(b.db, edited)?.content).toBe('<p>after</p>');
    expect(getStoredMessage(b.db, deleted)).toBeUndefined();
    await b.close();
  });

  it('refused credentials stop the session with status unauthorized', async () => {
    const s = openSession(t, ':memory:', 'hamlet', { apiKey: 'wrong-key-wrong-key-wrong-key-00' });
    s.start();
    await s.done();
    expect(s.status.state).toBe('unauthorized');
    await s.close();
  });

  it('shows who is editing which message, expiring without a refresh', async () => {
    let now = Date.now();
    const s = openSession(t, ':memory:', 'hamlet', { seams: { clock: { now: () => now } } });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const id = await send('iago', 'Verona', 'typing', 'edit me');
    await until(() => getStoredMessage(s.db, id) !== undefined);
    expect((await t.as('iago').post(`/messages/${id}/typing`, { op: 'start' })).status).toBe(200);
    await until(() => s.typingEditors().length > 0, 10_000, 'typing_edit_message');
    expect(s.typingEditors()).toEqual([{ message_id: id, user_ids: [t.userId('iago')] }]);
    now += 16_000; // past server_typing_started_expiry_period_milliseconds (15 s)
    expect(s.typingEditors()).toEqual([]);
    expect((await t.as('iago').post(`/messages/${id}/typing`, { op: 'start' })).status).toBe(200);
    await until(() => s.typingEditors().length > 0);
    expect((await t.as('iago').post(`/messages/${id}/typing`, { op: 'stop' })).status).toBe(200);
    await until(() => s.typingEditors().length === 0, 10_000, 'stop');
    await s.close();
  });

  it('edit history from the cache, with word diffs and moves', async () => {
    const s = openSession(t, ':memory:');
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const id = await send('iago', 'Verona', 'history', 'the quick fox');
    expect((await t.as('iago').patch(`/messages/${id}`, { content: 'the slow fox' })).status).toBe(200);
    expect((await t.as('iago').patch(`/messages/${id}`, { topic: 'history moved', stream_id: channelId(t, 'Denmark') })).status).toBe(200);
    await until(() => getStoredMessage(s.db, id)?.subject === 'history moved', 10_000, 'the move');
    const h = await s.editHistory(id);
    expect(h.source).toBe('cache');
    expect(h.original).toBe('the quick fox');
    expect(h.steps).toHaveLength(2);
    expect(h.steps[0]!.content_diff).toEqual([
      { op: 'same', text: 'the' },
      { op: 'removed', text: 'quick' },
      { op: 'added', text: 'slow' },
      { op: 'same', text: 'fox' },
    ]);
    expect(h.steps[1]!.topic).toEqual({ from: 'history', to: 'history moved' });
    expect(h.steps[1]!.channel).toEqual({ from: channelId(t, 'Verona'), to: channelId(t, 'Denmark') });
    await s.close();
  });

  it('live narrow views: the cached page, then change sets that replay to the current view; fills an incomplete side online', async () => {
    const s = openSession(t, ':memory:');
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const req = { narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'views' }], anchor: 'newest' as const, before: 50, after: 0 };
    const first = await send('othello', 'Verona', 'views', 'one');
    let snap: NarrowSnapshot | undefined;
    const h = s.openNarrow(req, (cs) => {
      expect(narrowChangeSetSchema.safeParse(cs).success).toBe(true);
      snap = applyChangeSet(snap!, cs);
    });
    snap = h.snapshot;
    expect(narrowSnapshotSchema.safeParse(snap).success).toBe(true);
    await until(() => snap!.messages.some((m) => m.id === first), 10_000, 'the first message');
    const second = await send('iago', 'Verona', 'views', 'two');
    await until(() => snap!.messages.some((m) => m.id === second), 10_000, 'a new message entering the view');
    expect((await t.as('iago').patch(`/messages/${first}`, { topic: 'elsewhere', propagate_mode: 'change_one' })).status).toBe(200);
    await until(() => !snap!.messages.some((m) => m.id === first), 10_000, 'a message moving out');
    expect(snap!.messages.map((m) => m.id)).toEqual([second]);
    h.close();
    await s.close();
  });

  it('loadOlder keeps going past the cache, from the server, until the conversation starts there', async () => {
    // 30 messages the initial sync does not cache (backfill depth 2): only the server has them.
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await send('othello', 'Verona', 'deep history', `m${i}`));
    const s = openSession(t, ':memory:', 'hamlet', { backfillDepth: 2 });
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const req = { narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'deep history' }], anchor: 'newest' as const, before: 5, after: 0 };
    let snap: NarrowSnapshot | undefined;
    const h = s.openNarrow(req, (cs) => {
      snap = applyChangeSet(snap!, cs);
    });
    snap = h.snapshot;
    await until(() => snap!.messages.length === 5, 10_000, 'the first page');
    h.loadOlder(10);
    await until(() => snap!.messages.length === 15, 10_000, 'ten older messages fetched past the cache');
    expect(snap!.before.found_end).toBe(false);
    h.loadOlder(100);
    await until(() => snap!.messages.length === 30 && snap!.before.found_end, 10_000, `the start of the conversation (${snap!.messages.length} shown, ${JSON.stringify(snap!.before)})`);
    expect(snap!.messages.map((m) => m.id)).toEqual(ids);
    h.close();
    await s.close();
  });

  it('query answers satisfy the protocol schemas', async () => {
    const s = openSession(t, ':memory:');
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    expect(queries.channels.response.parse(s.queries.channels()).length).toBeGreaterThan(0);
    expect(queries.users.response.parse(s.queries.users()).length).toBeGreaterThan(0);
    queries.savedSnippets.response.parse(s.queries.savedSnippets());
    queries.navigationViews.response.parse(s.queries.navigationViews());
    queries.scheduledMessages.response.parse(s.queries.scheduledMessages());
    queries.userSettings.response.parse(s.queries.userSettings());
    queries.typingEditors.response.parse(s.typingEditors());
    queries.status.response.parse(s.status);
    await s.close();
  });
});
