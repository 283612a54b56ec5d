/**
 * Local narrows agree with the server: the reference server's demo realm (plus generated history)
 * is fetched whole into a local store, then every operator, and its negation, is evaluated both
 * locally (compileLocalNarrow over SQLite) and by the server (GET /messages); the ids must match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateMessageFlags, updateUserTopic, type ApiConnection, type NarrowTerm } from '../../../sync/api/index.js';
import type { LocalDb } from '../../../sync/db/open.js';
import { compileLocalNarrow, LocalNarrowError } from '../../../sync/db/narrow/compile.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { connect, localIds, seededStore, serverIds } from './narrow-helpers.js';

let t: TestServer;
let hamlet: ApiConnection;
let db: LocalDb;
let self: number;
const term = (operator: string, operand: string | number | number[], negated = false) => ({ operator, operand, negated }) as NarrowTerm;

beforeAll(async () => {
  t = await startTestServer({ demoMessages: 400 });
  hamlet = connect(t, 'hamlet');
  // Some personal state beyond the demo's, so every per-user operator has something to find.
  const someIds = await serverIds(hamlet, [term('channel', 'Verona')]);
  await updateMessageFlags(hamlet, { messages: someIds.slice(0, 3), op: 'add', flag: 'starred' });
  await t.as('hamlet').post(`/messages/${someIds[4]!}/reactions`, { emoji_name: 'thumbs_up' });
  await updateUserTopic(hamlet, { stream_id: t.server.state.db.prepare("SELECT id FROM channels WHERE name = 'general'").pluck().get() as number, topic: 'lunch plans', visibility_policy: 1 });
  ({ db, selfUserId: self } = await seededStore(hamlet));
}, 60_000);
afterAll(async () => {
  db?.close();
  await hamlet?.close();
  await t?.close();
});

function narrows(): Array<{ name: string; narrow: NarrowTerm[] }> {
  const id = (who: string) => t.userId(who);
  const anyChannelMessage = t.server.state.db.prepare("SELECT id FROM messages WHERE type = 'stream' ORDER BY id DESC LIMIT 1").pluck().get() as number;
  const empty = (db.prepare("SELECT value FROM realm WHERE name = 'realm_empty_topic_display_name'").pluck().get() as string | undefined) ?? '""';
  const single: NarrowTerm[] = [
    term('channel', 'general'),
    term('stream', 'Verona'),
    term('channel', t.server.state.db.prepare("SELECT id FROM channels WHERE name = 'Denmark'").pluck().get() as number),
    term('topic', 'LUNCH PLANS'),
    term('topic', JSON.parse(empty) as string),
    term('sender', 'iago@example.com'),
    term('sender', id('othello')),
    term('dm', [id('othello')]),
    term('dm', 'othello@example.com,cordelia@example.com'),
    term('pm-with', [id('hamlet')]),
    term('dm-including', id('othello')),
    term('group-pm-with', 'cordelia@example.com'),
    ...['dm', 'private', 'starred', 'unread', 'mentioned', 'alerted', 'resolved', 'followed', 'muted'].map((o) => term('is', o)),
    ...['link', 'attachment', 'image', 'reaction'].map((o) => term('has', o)),
    term('in', 'home'),
    term('in', 'all'),
    term('channels', 'public'),
    term('search', 'lunch'),
    term('search', 'rel sched'),
    term('search', '"release schedule"'),
    term('search', 'the'),
    term('id', anyChannelMessage),
    term('id', String(anyChannelMessage)),
    term('mentions', id('hamlet')),
  ];
  const out: Array<{ name: string; narrow: NarrowTerm[] }> = [];
  for (const s of single) {
    out.push({ name: JSON.stringify(s), narrow: [s] });
    out.push({ name: `NOT ${JSON.stringify(s)}`, narrow: [{ ...s, negated: true }] });
  }
  out.push({ name: 'channel+topic', narrow: [term('channel', 'general'), term('topic', 'lunch plans')] });
  out.push({ name: 'channel + not topic', narrow: [term('channel', 'general'), term('topic', 'lunch plans', true)] });
  out.push({ name: 'channel + is:starred', narrow: [term('channel', 'Verona'), term('is', 'starred')] });
  out.push({ name: 'channel + in:home', narrow: [term('channel', 'general'), term('in', 'home')] });
  out.push({ name: 'near is no filter', narrow: [term('channel', 'general'), term('near', String(anyChannelMessage))] });
  out.push({ name: 'with (channel message)', narrow: [term('with', anyChannelMessage)] });
  out.push({ name: 'search in channel', narrow: [term('channel', 'general'), term('search', 'release')] });
  return out;
}

describe('local narrows equal the server on the same data', () => {
  it('every operator and its negation', async () => {
    const mismatches: string[] = [];
    const list = narrows();
    let nonEmpty = 0;
    for (const { name, narrow } of list) {
      const remote = await serverIds(hamlet, narrow).catch((e: unknown) => `error ${String(e)}`);
      let local: number[] | string;
      try {
        const n = compileLocalNarrow(db, narrow, self);
        local = localIds(db, n.where, n.params);
      } catch (e) {
        local = `error ${String(e)}`;
      }
      if (typeof remote === 'string' || typeof local === 'string') {
        if (typeof remote !== typeof local) mismatches.push(`${name}: server ${String(remote).slice(0, 80)} / local ${String(local).slice(0, 80)}`);
        continue;
      }
      // Negated channel terms keep direct messages (Zulip negates recipient_id = ?): check it.
      const ids: number[] = local;
      if (/^NOT \{"operator":"(channel|stream|channels)"/.test(name)) {
        const dms = localIds(db, "m.type = 'private' AND (m.flags & 64) = 0", []);
        expect(dms.length).toBeGreaterThan(0);
        expect(dms.every((x) => ids.includes(x) && remote.includes(x))).toBe(true);
      }
      if (remote.length > 0) nonEmpty++;
      const missing = remote.filter((x) => !ids.includes(x));
      const extra = ids.filter((x) => !remote.includes(x));
      if (missing.length || extra.length) mismatches.push(`${name}: ${remote.length} vs ${ids.length} missing ${missing.slice(0, 5)} extra ${extra.slice(0, 5)}`);
    }
    expect(mismatches).toEqual([]);
    expect(list.length).toBeGreaterThan(70);
    // Not a comparison of empty sets: most narrows find something.
    expect(nonEmpty).toBeGreaterThan(55);
  }, 60_000);

  it('the legacy encoding, aliases and operand forms compile to the same key', () => {
    const a = compileLocalNarrow(db, [['stream', 'general'], ['topic', 'Lunch Plans']], self);
    const b = compileLocalNarrow(db, JSON.stringify([{ operator: 'channel', operand: 'GENERAL' }, { operator: 'topic', operand: 'lunch plans' }]), self);
    expect(a.key).toBe(b.key);
    expect(localIds(db, a.where, a.params)).toEqual(localIds(db, b.where, b.params));
    const c = compileLocalNarrow(db, [term('dm', 'othello@example.com')], self);
    const d = compileLocalNarrow(db, [term('pm-with', [t.userId('othello'), self])], self);
    expect(c.key).toBe(d.key);
  });

  it('unknown or unsupported narrows are refused with a reason', () => {
    const code = (narrow: unknown) => {
      try {
        compileLocalNarrow(db, narrow, self);
        return 'ok';
      } catch (e) {
        return e instanceof LocalNarrowError ? e.code : 'other';
      }
    };
    expect(code([{ operator: 'bogus', operand: 'x' }])).toBe('invalid_narrow');
    expect(code([{ operator: 'is', operand: 'nonsense' }])).toBe('invalid_narrow');
    expect(code([{ operator: 'channel', operand: 'no such channel' }])).toBe('unknown_channel');
    expect(code([{ operator: 'sender', operand: 'nobody@example.com' }])).toBe('unknown_user');
    expect(code([{ operator: 'channel', operand: 'general' }, { operator: 'is', operand: 'dm' }])).toBe('channel_and_dm');
    expect(code([{ operator: 'with', operand: 99999999 }])).toBe('unresolvable_with');
    expect(code('not json')).toBe('invalid_narrow');
  });
});
