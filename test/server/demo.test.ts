/**
 * The demo realm (server/demo): the seeded content a sandbox user sees, its determinism, the
 * generated history of `demoMessages`, and the demo accounts' logins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/demo/base.js';
import { startTestServer, type TestServer } from './harness.js';

type Msg = Record<string, unknown> & { id: number; subject: string; content: string; type: string };

let t: TestServer;
let all: Msg[];
beforeAll(async () => {
  t = await startTestServer();
  const r = await t.as('iago').get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false, narrow: [] });
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  all = r.json.messages as Msg[];
});
afterAll(() => t.close());

const register = async (who: string, keys: string[]) => (await t.as(who).post('/register', { fetch_event_types: keys, client_capabilities: { empty_topic_name: true } })).json;

describe('demo content', () => {
  it('every public channel has several topics with messages from several users', async () => {
    for (const channel of ['general', 'Verona', 'Denmark', 'Scotland']) {
      const msgs = all.filter((m) => m.display_recipient === channel);
      expect(new Set(msgs.map((m) => m.subject)).size, channel).toBeGreaterThanOrEqual(2);
      expect(new Set(msgs.map((m) => m.sender_id)).size, channel).toBeGreaterThanOrEqual(2);
    }
  });

  it('the private channel has messages too', async () => {
    expect(all.some((m) => m.display_recipient === 'core team')).toBe(true);
  });

  it('has an edited message with content edit history', async () => {
    const edited = all.find((m) => m.last_edit_timestamp !== undefined);
    expect(edited).toBeDefined();
    expect(edited!.edit_history).toEqual(expect.arrayContaining([expect.objectContaining({ prev_content: expect.any(String) })]));
  });

  it('has a message moved to another topic', async () => {
    const moved = all.find((m) => m.last_moved_timestamp !== undefined);
    expect(moved).toBeDefined();
    expect(moved!.edit_history).toEqual(expect.arrayContaining([expect.objectContaining({ prev_topic: expect.any(String), topic: moved!.subject })]));
  });

  it('has a resolved topic', async () => {
    expect(all.some((m) => m.subject.startsWith('✔ '))).toBe(true);
  });

  it('has reactions', async () => {
    expect(all.some((m) => Array.isArray(m.reactions) && m.reactions.length > 0)).toBe(true);
  });

  it('has a message in the empty topic', async () => {
    const r = await t.as('iago').get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, allow_empty_topic_name: true, narrow: [] });
    expect((r.json.messages as Msg[]).some((m) => m.type === 'stream' && m.subject === '')).toBe(true);
  });

  it('has 1:1 and group direct messages', async () => {
    const r = await register('hamlet', ['recent_private_conversations']);
    const convs = r.recent_private_conversations as Array<{ user_ids: number[] }>;
    expect(convs.some((c) => c.user_ids.length === 1)).toBe(true);
    expect(convs.some((c) => c.user_ids.length >= 2)).toBe(true);
  });

  it('hamlet has unread messages, unread mentions and starred messages', async () => {
    const r = await register('hamlet', ['message', 'update_message_flags', 'starred_messages']);
    const unread = r.unread_msgs as { count: number; mentions: number[]; pms: unknown[]; streams: unknown[] };
    expect(unread.count).toBeGreaterThan(0);
    expect(unread.mentions.length).toBeGreaterThan(0);
    expect(unread.pms.length).toBeGreaterThan(0);
    expect(unread.streams.length).toBeGreaterThan(0);
    expect((r.starred_messages as number[]).length).toBeGreaterThan(0);
  });

  it('mentions are rendered and flagged', async () => {
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'mentioned' }] });
    const msgs = r.json.messages as Msg[];
    expect(msgs.length).toBeGreaterThan(0);
    expect(msgs.some((m) => m.content.includes('user-mention'))).toBe(true);
  });

  it('older messages are read; not everything is unread', async () => {
    const r = await register('hamlet', ['message', 'update_message_flags']);
    const received = t.server.state.db.prepare('SELECT COUNT(*) FROM user_messages WHERE user_id = ?').pluck().get(t.userId('hamlet')) as number;
    expect((r.unread_msgs as { count: number }).count).toBeLessThan(received);
  });

  it('has topic preferences (a followed topic)', async () => {
    const r = await register('hamlet', ['user_topic']);
    expect(r.user_topics).toEqual(expect.arrayContaining([expect.objectContaining({ topic_name: 'castle', visibility_policy: 3 })]));
  });

  it('has scheduled messages, one of them failed', async () => {
    const hamlet = (await register('hamlet', ['scheduled_messages'])).scheduled_messages as Array<{ failed: boolean; type: string }>;
    expect(hamlet.length).toBeGreaterThanOrEqual(2);
    expect(new Set(hamlet.map((m) => m.type))).toEqual(new Set(['stream', 'private']));
    const failed = (await t.as('polonius').get('/scheduled_messages')).json.scheduled_messages as Array<{ failed: boolean }>;
    expect(failed.some((m) => m.failed)).toBe(true);
  });

  it('has saved snippets and navigation views', async () => {
    const r = await register('hamlet', ['saved_snippets', 'navigation_views']);
    expect((r.saved_snippets as unknown[]).length).toBeGreaterThan(0);
    const views = r.navigation_views as Array<{ name: string | null }>;
    expect(views.some((v) => v.name === null)).toBe(true);
    expect(views.some((v) => v.name !== null)).toBe(true);
  });

  it('is deterministic: a second demo server has the same messages', async () => {
    const other = await startTestServer();
    try {
      // Notices link to messages by URL, which carries each server's port.
      const key = (url: string) => (m: Msg) => [m.id, m.type, m.subject, m.sender_id, m.content.replaceAll(url, '<realm>'), m.timestamp];
      const r = await other.as('iago').get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false, narrow: [] });
      expect((r.json.messages as Msg[]).map(key(other.url))).toEqual(all.map(key(t.url)));
    } finally {
      await other.close();
    }
  });

  it('every demo account logs in with POST /fetch_api_key and the sandbox password', async () => {
    for (const u of DEMO_USERS) {
      const r = await t.raw('POST', '/fetch_api_key', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: u.email, password: DEMO_PASSWORD }).toString(),
      });
      expect(r.status, u.email).toBe(200);
      expect(r.json).toMatchObject({ result: 'success', email: u.email, api_key: t.server.apiKey(u.email) });
    }
    expect(DEMO_PASSWORD).toBe('sandbox');
  });
});

describe('generated demo history (extraMessages)', () => {
  const N = 5000;
  let g: TestServer;
  beforeAll(async () => {
    g = await startTestServer({ demoMessages: N });
  });
  afterAll(() => g.close());

  const count = (sql: string) => g.server.state.db.prepare(sql).pluck().get() as number;

  it('adds the requested number of messages to the hand-written ones', () => {
    const plain = t.server.state.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
    expect(count('SELECT COUNT(*) FROM messages')).toBe(N + plain);
  });

  it('spreads them over every channel, many topics and direct messages', () => {
    expect(count('SELECT COUNT(DISTINCT channel_id) FROM messages WHERE channel_id IS NOT NULL')).toBe(5);
    expect(count('SELECT COUNT(DISTINCT channel_id || topic) FROM messages WHERE channel_id IS NOT NULL')).toBeGreaterThan(20);
    expect(count("SELECT COUNT(*) FROM messages WHERE type = 'private'")).toBeGreaterThan(N / 10);
  });

  it('generated history is older than the hand-written conversations (ids follow time)', () => {
    const outOfOrder = count('SELECT COUNT(*) FROM messages a JOIN messages b ON b.id = a.id + 1 WHERE b.date_sent < a.date_sent');
    expect(outOfOrder).toBe(0);
  });

  it('recipients have message rows (read), and the full-text index finds the messages', async () => {
    expect(count('SELECT COUNT(*) FROM user_messages')).toBeGreaterThan(N * 2);
    const r = await g.as('iago').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'search', operand: 'castle' }] });
    expect((r.json.messages as Msg[]).length).toBeGreaterThan(0);
  });

  it('is deterministic across runs', async () => {
    const again = await startTestServer({ demoMessages: N });
    try {
      const digest = (s: TestServer) =>
        s.server.state.db.prepare("SELECT group_concat(id || ':' || sender_id || ':' || topic || ':' || content, '|') FROM (SELECT * FROM messages ORDER BY id LIMIT 2000)").pluck().get();
      expect(digest(again)).toBe(digest(g));
    } finally {
      await again.close();
    }
  });

  it('generated messages are served by GET /messages like any other', async () => {
    const oldest = await g.as('hamlet').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 20, narrow: [] });
    expect(oldest.json.result).toBe('success');
    expect((oldest.json.messages as Msg[]).length).toBe(20);
  });
});
