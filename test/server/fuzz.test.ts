/**
 * Bad input never breaks the reference server: at least 2,000 generated and mutated requests
 * (wrong types, missing and extra parameters, huge values, bad JSON, bad auth, unicode edge cases,
 * bad paths and bodies) and for every one of them:
 *   - never a 5xx;
 *   - always the JSON envelope (`result`, `msg`, and `code` on errors);
 *   - a rejected request (HTTP >= 400) leaves the database exactly as it was.
 * Seeded (FUZZ_SEED, FUZZ_COUNT env vars run other seeds or more requests on demand).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Kind = 'str' | 'topic' | 'content' | 'int' | 'bool' | 'ints' | 'json' | 'group' | 'narrow' | 'anchor' | 'email' | 'emails';
interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string; // `{id}` placeholders are filled with real or broken ids
  params: Record<string, Kind>;
  auth?: false;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'PATCH', path: '/messages/{message}', params: { topic: 'topic', propagate_mode: 'str', send_notification_to_old_thread: 'bool', send_notification_to_new_thread: 'bool', content: 'content', prev_content_sha256: 'str', stream_id: 'int' } },
  { method: 'GET', path: '/messages/{message}', params: { apply_markdown: 'bool', allow_empty_topic_name: 'bool' } },
  { method: 'GET', path: '/messages', params: { anchor: 'anchor', include_anchor: 'bool', num_before: 'int', num_after: 'int', narrow: 'narrow', client_gravatar: 'bool', apply_markdown: 'bool', message_ids: 'ints', allow_empty_topic_name: 'bool', use_first_unread_anchor: 'bool' } },
  { method: 'POST', path: '/messages', params: { type: 'str', to: 'json', topic: 'topic', content: 'content', queue_id: 'str', local_id: 'str', read_by_sender: 'bool' } },
  { method: 'POST', path: '/messages/{message}/typing', params: { op: 'str' } },
  { method: 'POST', path: '/typing', params: { type: 'str', op: 'str', to: 'ints', stream_id: 'int', topic: 'topic' } },
  { method: 'POST', path: '/messages/flags', params: { messages: 'ints', op: 'str', flag: 'str' } },
  { method: 'POST', path: '/messages/flags/narrow', params: { anchor: 'anchor', include_anchor: 'bool', num_before: 'int', num_after: 'int', narrow: 'narrow', op: 'str', flag: 'str' } },
  { method: 'GET', path: '/messages/{message}/history', params: {} },
  { method: 'PATCH', path: '/scheduled_messages/{scheduled}', params: { type: 'str', to: 'json', content: 'content', topic: 'topic', scheduled_delivery_timestamp: 'int' } },
  { method: 'POST', path: '/scheduled_messages', params: { type: 'str', to: 'json', content: 'content', topic: 'topic', scheduled_delivery_timestamp: 'int' } },
  { method: 'PATCH', path: '/settings', params: { full_name: 'str', twenty_four_hour_time: 'bool', web_channel_default_view: 'int', color_scheme: 'int', emojiset: 'str', web_home_view: 'str', timezone: 'str', default_language: 'str', desktop_icon_count_display: 'int', old_password: 'str', new_password: 'str', email: 'email', receives_typing_notifications: 'bool' } },
  { method: 'POST', path: '/users/me/subscriptions', params: { subscriptions: 'json', principals: 'json', authorization_errors_fatal: 'bool', announce: 'bool', invite_only: 'bool', is_web_public: 'bool', history_public_to_subscribers: 'bool', message_retention_days: 'json', topics_policy: 'json', can_add_subscribers_group: 'group', can_remove_subscribers_group: 'group' } },
  { method: 'PATCH', path: '/user_groups/{group}', params: { name: 'str', description: 'str', can_manage_group: 'json', can_mention_group: 'json', can_join_group: 'json', deactivated: 'bool' } },
  { method: 'POST', path: '/user_groups/{group}/members', params: { add: 'ints', delete: 'ints', add_subgroups: 'ints', delete_subgroups: 'ints' } },
  { method: 'POST', path: '/user_topics', params: { stream_id: 'int', topic: 'topic', visibility_policy: 'int' } },
  { method: 'POST', path: '/invites', params: { invitee_emails: 'emails', invite_expires_in_minutes: 'int', invite_as: 'int', stream_ids: 'ints', group_ids: 'ints', include_realm_default_subscriptions: 'bool', notify_referrer_on_join: 'bool', welcome_message_custom_text: 'str' } },
  { method: 'POST', path: '/streams/{channel}/delete_topic', params: { topic_name: 'topic' } },
  { method: 'POST', path: '/mark_topic_as_read', params: { stream_id: 'int', topic_name: 'topic' } },
  { method: 'POST', path: '/users/me/apns_device_token', params: { token: 'str', appid: 'str' } },
  { method: 'POST', path: '/users', params: { email: 'email', password: 'str', full_name: 'str' } },
  { method: 'POST', path: '/navigation_views', params: { fragment: 'str', is_pinned: 'bool', name: 'str' } },
  { method: 'PATCH', path: '/navigation_views/{fragment}', params: { is_pinned: 'bool', name: 'str' } },
  { method: 'POST', path: '/saved_snippets', params: { title: 'str', content: 'content' } },
  { method: 'PATCH', path: '/saved_snippets/{snippet}', params: { title: 'str', content: 'content' } },
  { method: 'POST', path: '/fetch_api_key', params: { username: 'email', password: 'str' }, auth: false },
  { method: 'POST', path: '/mobile_push/e2ee/test_notification', params: { push_account_id: 'int' } },
  { method: 'POST', path: '/register', params: { event_types: 'json', fetch_event_types: 'json', narrow: 'json', apply_markdown: 'bool', client_gravatar: 'bool', client_capabilities: 'json' } },
  { method: 'GET', path: '/events', params: { queue_id: 'str', last_event_id: 'int', dont_block: 'bool' } },
  { method: 'DELETE', path: '/events', params: { queue_id: 'str' } },
  { method: 'PATCH', path: '/realm', params: { allow_message_editing: 'bool', message_content_edit_limit_seconds: 'json', move_messages_within_stream_limit_seconds: 'json', can_resolve_topics_group: 'json' } },
  { method: 'GET', path: '/users', params: { client_gravatar: 'bool', user_ids: 'ints' } },
  { method: 'GET', path: '/streams', params: { include_public: 'bool', include_all: 'bool' } },
  { method: 'GET', path: '/user_groups', params: { include_deactivated_groups: 'bool' } },
  { method: 'DELETE', path: '/saved_snippets/{snippet}', params: {} },
  { method: 'DELETE', path: '/scheduled_messages/{scheduled}', params: {} },
  { method: 'DELETE', path: '/navigation_views/{fragment}', params: {} },
];

/** mulberry32: small, seeded, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

const WEIRD_STRINGS = [
  '', ' ', '\t\n', 'null', 'true', '[]', '{}', '{"a":', '"quoted"', '0', '-1', '1e309', 'NaN',
  '\u0000', 'a\u0000b', '\u202eevil', 'zero\u200bwidth', '🧪🚀', 'e\u0301', '\ud800', '(no topic)', 'general chat', '✔ ', '✔ done',
  '<script>alert(1)</script>', '@**all**', '@**channel**', '@**topic**', '#**Verona>castle**', '../../etc/passwd', '%00', '%zz',
  'x'.repeat(70), 'y'.repeat(10_001), 'z'.repeat(200_000), 'narrow/is/alerted', 'inbox', 'hamlet@example.com', 'nobody@example.com',
];
const WEIRD_JSON = ['{bad', '[1,', '{"a":1}', '[[[[[[[[[[]]]]]]]]]]', '[1,"2",null]', '[-1]', '[1e20]', '9007199254740993', '-5', '1.5', '"str"', 'true', 'null', '[]', '{}', `[${'1,'.repeat(5000)}1]`, '{"new":1}', '{"new":{"direct_members":[99999],"direct_subgroups":[]}}', '{"direct_members":[],"direct_subgroups":[1]}'];

function validish(kind: Kind, rng: Rng, ids: Ids): string {
  switch (kind) {
    case 'str': return rng.pick(['start', 'stop', 'add', 'remove', 'read', 'starred', 'channel', 'direct', 'stream', 'private', 'change_one', 'change_all', 'change_later', 'google', 'inbox', 'UTC', 'en', 'sandbox', 'Title', 'narrow/is/starred']);
    case 'topic': return rng.pick(['castle', 'lunch', '', 'fuzz topic', '✔ castle']);
    case 'content': return rng.pick(['hello', 'fuzz **bold**', '@**King Hamlet**', '']);
    case 'int': return String(rng.pick([0, 1, 2, 3, 4, 400, 600, ...ids.channels, ...ids.messages, ...ids.users, 2_000_000_000, Math.floor(ids.nowSeconds + 3600)]));
    case 'bool': return rng.pick(['true', 'false']);
    case 'ints': return JSON.stringify(rng.pick([[], ids.users.slice(0, 2), ids.messages.slice(0, 3), [ids.channels[0]], [999_999]]));
    case 'json': return rng.pick(['[]', '{}', JSON.stringify([{ name: 'fuzz channel' }]), JSON.stringify(ids.users.slice(0, 1)), '"unlimited"', '10', JSON.stringify({ new: ids.groups[0] })]);
    case 'group': return String(rng.pick(ids.groups));
    case 'narrow': return JSON.stringify(rng.pick([[], [{ operator: 'channel', operand: 'Verona' }], [['stream', 'Denmark'], ['topic', 'castle']], [{ operator: 'is', operand: 'starred' }], [{ operator: 'search', operand: 'castle' }]]));
    case 'anchor': return rng.pick(['newest', 'oldest', 'first_unread', String(ids.messages[0] ?? 1), '-5', 'latest']);
    case 'email': return rng.pick(['new.person@example.com', 'hamlet@example.com', 'not-an-email', '']);
    case 'emails': return rng.pick(['a@example.com,b@example.com', 'hamlet@example.com\nnew@example.com', '', ',,,']);
  }
}

function mutated(kind: Kind, rng: Rng, ids: Ids): string {
  const r = rng.int(4);
  if (r === 0) return rng.pick(WEIRD_STRINGS);
  if (r === 1) return rng.pick(WEIRD_JSON);
  if (r === 2 && (kind === 'int' || kind === 'bool')) return rng.pick(['"1"', 'yes', '1.0', '[1]', '{}', '1e3', '0x10', '']);
  return validish(kind, rng, ids);
}

interface Ids {
  users: number[];
  channels: number[];
  messages: number[];
  groups: number[];
  nowSeconds: number;
}

function pathFor(template: string, rng: Rng, ids: Ids): string {
  return template.replace(/\{(\w+)\}/g, (_m, what: string) => {
    if (rng.chance(0.25)) return encodeURIComponent(rng.pick(['0', '-1', 'abc', '99999999', '1.5', '%', '9'.repeat(30), '', 'narrow/is/x']));
    if (what === 'message') return String(rng.pick(ids.messages));
    if (what === 'channel') return String(rng.pick(ids.channels));
    if (what === 'group') return String(rng.pick(ids.groups));
    if (what === 'fragment') return rng.pick(['inbox', 'narrow/is/starred', 'narrow/channel/1-x', 'nope']);
    return String(rng.int(5));
  });
}

/** A digest of every table's rows (contentless FTS tables are skipped: they are derived). */
function fingerprint(t: TestServer): string {
  const db = t.server.state.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'messages_fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  const h = createHash('sha256');
  for (const name of tables) {
    h.update(name);
    for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate()) h.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
  }
  return h.digest('hex');
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('bad input (fuzz)', () => {
  it(`${COUNT} generated and mutated requests: never 5xx, always the JSON envelope, rejected requests change nothing`, { timeout: 240_000 }, async () => {
    const rng = prng(SEED);
    const db = t.server.state.db;
    const ids: Ids = {
      users: db.prepare('SELECT id FROM users ORDER BY id').pluck().all() as number[],
      channels: db.prepare('SELECT id FROM channels ORDER BY id').pluck().all() as number[],
      messages: (db.prepare('SELECT id FROM messages ORDER BY id LIMIT 50').pluck().all() as number[]).concat([1]),
      groups: db.prepare('SELECT id FROM user_groups ORDER BY id').pluck().all() as number[],
      nowSeconds: Math.floor(t.clock.now() / 1000),
    };
    const people = ['hamlet', 'iago', 'desdemona', 'polonius', 'othello'];
    const failures: string[] = [];
    const statusCounts = new Map<number, number>();
    let before = fingerprint(t);
    for (let i = 0; i < COUNT; i++) {
      const ep = rng.pick(ENDPOINTS);
      const params = new URLSearchParams();
      for (const [name, kind] of Object.entries(ep.params)) {
        if (rng.chance(0.3)) continue; // missing
        params.append(name, rng.chance(0.35) ? mutated(kind, rng, ids) : validish(kind, rng, ids));
      }
      if (rng.chance(0.15)) params.append(rng.pick(['zzz', 'message_id', 'subject', 'op', '__proto__', 'constructor']), rng.pick(WEIRD_STRINGS));
      const path = pathFor(ep.path, rng, ids);
      const headers: Record<string, string> = {};
      const authMode = ep.auth === false ? 'none' : rng.chance(0.8) ? 'ok' : rng.pick(['bad-key', 'malformed', 'none', 'unknown-user']);
      const who = `${rng.pick(people)}@example.com`;
      if (authMode === 'ok') headers.authorization = `Basic ${Buffer.from(`${who}:${t.server.apiKey(who)}`).toString('base64')}`;
      if (authMode === 'bad-key') headers.authorization = `Basic ${Buffer.from(`${who}:wrongkey`).toString('base64')}`;
      if (authMode === 'malformed') headers.authorization = rng.pick(['Basic ###', 'Bearer x', 'Basic ' + Buffer.from('nocolon').toString('base64'), 'Basic']);
      if (authMode === 'unknown-user') headers.authorization = `Basic ${Buffer.from('ghost@example.com:x').toString('base64')}`;
      let body: string | undefined;
      let url = path;
      const encoded = rng.chance(0.05) ? `${params.toString()}&bad=%zz%E0%A4&=&&x` : params.toString();
      if (ep.method === 'GET' || ep.method === 'DELETE' || rng.chance(0.1)) url = encoded ? `${path}?${encoded}` : path;
      else {
        body = encoded;
        headers['content-type'] = rng.chance(0.05) ? rng.pick(['application/json', 'text/plain', 'multipart/form-data']) : 'application/x-www-form-urlencoded';
      }
      const res = await fetch(`${t.url}/api/v1${url}`, { method: ep.method, headers, body });
      const text = await res.text();
      statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
      const label = `#${i} ${ep.method} ${url.slice(0, 120)} [${authMode}] body=${(body ?? '').slice(0, 120)}`;
      let json: { result?: unknown; msg?: unknown; code?: unknown } | undefined;
      try {
        json = JSON.parse(text);
      } catch {
        failures.push(`${label}: non-JSON ${res.status}: ${text.slice(0, 100)}`);
        continue;
      }
      if (res.status >= 500) failures.push(`${label}: HTTP ${res.status} ${text.slice(0, 200)}`);
      if (res.headers.get('content-type') !== 'application/json') failures.push(`${label}: content-type ${res.headers.get('content-type')}`);
      if (json?.result !== 'success' && json?.result !== 'error') failures.push(`${label}: no result field`);
      if (typeof json?.msg !== 'string') failures.push(`${label}: no msg`);
      if (res.status >= 400) {
        if (typeof json?.code !== 'string') failures.push(`${label}: error without code`);
        const after = fingerprint(t);
        if (after !== before) failures.push(`${label}: rejected (${res.status} ${String(json?.code)}) but the database changed`);
        before = after;
      } else {
        before = fingerprint(t);
      }
      if (failures.length > 20) break;
    }
    const summary = [...statusCounts.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`fuzz seed ${SEED}: ${COUNT} requests, statuses ${summary}`);
    expect(failures).toEqual([]);
    // The mix must exercise both paths: many rejections and some successes.
    expect(statusCounts.get(200) ?? 0).toBeGreaterThan(COUNT * 0.05);
    expect([...statusCounts.entries()].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(COUNT * 0.3);
  });
});
