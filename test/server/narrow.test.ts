/**
 * Narrows of GET /messages (spec "GET /messages" narrow rules; docs/zulip-behaviour.md "Narrows"): both encodings, every
 * operator with negation, personal history vs channel history, search highlighting, `with`,
 * errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicKey } from '../../common/topic-key.js';
import { startTestServer, type ParamValue, type TestServer } from './harness.js';
import { channelId, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

type Msg = { id: number; flags: string[]; subject: string; match_content?: string; match_subject?: string };

async function send(who: string, params: Record<string, unknown>): Promise<number> {
  const r = await t.as(who).post('/messages', params as Record<string, string>);
  if (r.status !== 200) throw new Error(JSON.stringify(r.json));
  return r.json.id as number;
}
const toChannel = (who: string, channel: string, topic: string, content: string) => send(who, { type: 'stream', to: channelId(t, channel), topic, content });
const toUsers = (who: string, users: string[], content: string) => send(who, { type: 'direct', to: users.map((u) => t.userId(u)), content });

async function narrowed(who: string, narrow: ParamValue, extra: Record<string, ParamValue> = {}) {
  return t.as(who).get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow, ...extra });
}
async function idsFor(who: string, narrow: ParamValue): Promise<number[]> {
  const r = await narrowed(who, narrow);
  if (r.status !== 200) throw new Error(JSON.stringify(r.json));
  return (r.json.messages as Msg[]).map((m) => m.id);
}
const op = (operator: string, operand: unknown, negated?: boolean) => ({ operator, operand, ...(negated === undefined ? {} : { negated }) });

describe('narrow encodings', () => {
  it('accepts the modern object form and the legacy [operator, operand] pairs alike', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('hamlet', 'Verona', topic, 'x');
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('topic', topic)])).toEqual([id]);
    expect(await idsFor('hamlet', [['stream', 'Verona'], ['topic', topic]])).toEqual([id]);
  });

  it('legacy aliases stream, pm-with, group-pm-with and underscore forms are accepted', async () => {
    const id = await toUsers('hamlet', ['othello'], 'aliases');
    expect(await idsFor('hamlet', [op('pm-with', 'othello@example.com')])).toContain(id);
    expect(await idsFor('hamlet', [op('pm_with', 'othello@example.com')])).toContain(id);
    expect(await idsFor('hamlet', [op('group-pm-with', 'othello@example.com')])).toContain(id);
  });

  it('a legacy pair must be exactly two strings', async () => {
    const r = await narrowed('hamlet', [['stream']]);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('REQUEST_VARIABLE_INVALID');
  });

  it('narrow that is not JSON is INVALID_JSON', async () => {
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: 'not json' });
    expect(r.json.code).toBe('INVALID_JSON');
  });

  it('an unknown operator is BAD_NARROW with desc', async () => {
    const r = await narrowed('hamlet', [op('colour', 'blue')]);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'BAD_NARROW', desc: expect.any(String) });
    expect(r.json.msg).toMatch(/^Invalid narrow operator: /);
  });

  it('a channel and a direct-message operator together are BAD_NARROW', async () => {
    for (const dm of [op('dm', 'othello@example.com'), op('is', 'dm'), op('dm-including', t.userId('othello'))]) {
      const r = await narrowed('hamlet', [op('channel', 'Verona'), dm]);
      expect(r.json).toMatchObject({ code: 'BAD_NARROW', msg: 'No message can be both a channel message and direct message' });
    }
  });
});

describe('channel, channels and topic', () => {
  it('channel by name or id; unknown channel is BAD_NARROW', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('hamlet', 'Verona', topic, 'x');
    expect(await idsFor('hamlet', [op('channel', channelId(t, 'Verona')), op('topic', topic)])).toEqual([id]);
    expect(await idsFor('hamlet', [op('stream', 'verona'), op('topic', topic)])).toEqual([id]);
    expect((await narrowed('hamlet', [op('channel', 'Atlantis')])).json.code).toBe('BAD_NARROW');
  });

  it('a channel narrow includes the channel history the user never received (flags read, historical)', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('iago', 'Scotland', topic, 'moor');
    const r = await narrowed('hamlet', [op('channel', 'Scotland'), op('topic', topic)]);
    expect((r.json.messages as Msg[]).map((m) => [m.id, m.flags])).toEqual([[id, ['read', 'historical']]]);
  });

  it('a narrow without a channel operator searches only the personal history', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('iago', 'Scotland', topic, 'not for hamlet');
    expect(await idsFor('hamlet', [op('topic', topic)])).toEqual([]);
    expect(await idsFor('othello', [op('topic', topic)])).toEqual([id]);
  });

  it('channels:public searches every public channel; private ones stay out', async () => {
    const topic = uniqueTopic();
    const pub = await toChannel('iago', 'Scotland', topic, 'public');
    await toChannel('iago', 'core team', topic, 'private');
    expect(await idsFor('cordelia', [op('channels', 'public'), op('topic', topic)])).toEqual([pub]);
  });

  it('channels with an unknown operand is BAD_NARROW', async () => {
    expect((await narrowed('hamlet', [op('channels', 'everything')])).json.code).toBe('BAD_NARROW');
  });

  it('a negated channel excludes it (and keeps direct messages)', async () => {
    const topic = uniqueTopic();
    const a = await toChannel('hamlet', 'Verona', topic, 'a');
    const b = await toChannel('hamlet', 'Denmark', topic, 'b');
    expect(await idsFor('hamlet', [op('channel', 'Verona', true), op('topic', topic)])).toEqual([b]);
    expect(await idsFor('hamlet', [op('topic', topic)])).toEqual([a, b]);
    const dm = (await t.as('hamlet').post('/messages', { type: 'direct', to: [t.userId('othello')], content: `dm ${topic}` })).json.id as number;
    const notVerona = await idsFor('hamlet', [op('channel', 'Verona', true)]);
    expect(notVerona).toContain(dm);
    expect(notVerona).toContain(b);
    expect(notVerona).not.toContain(a);
  });

  it('a private channel with protected history shows a late subscriber only what they received', async () => {
    const topic = uniqueTopic();
    const before = await toChannel('iago', 'core team', topic, 'before');
    const cid = channelId(t, 'core team');
    t.server.state.db.prepare('INSERT INTO subscriptions (user_id, channel_id) VALUES (?, ?)').run(t.userId('shiva'), cid);
    const after = await toChannel('iago', 'core team', topic, 'after');
    expect(await idsFor('shiva', [op('channel', 'core team'), op('topic', topic)])).toEqual([after]);
    expect(await idsFor('hamlet', [op('channel', 'core team'), op('topic', topic)])).toEqual([before, after]);
  });

  it('a user who cannot see a private channel gets nothing from it', async () => {
    const topic = uniqueTopic();
    await toChannel('iago', 'core team', topic, 'secret');
    expect(await idsFor('othello', [op('channel', 'core team'), op('topic', topic)])).toEqual([]);
  });

  it('topic matches case-insensitively; negated topic excludes it', async () => {
    const topic = uniqueTopic('Case');
    const a = await toChannel('hamlet', 'Verona', topic, 'a');
    const b = await toChannel('hamlet', 'Verona', `${topic} other`, 'b');
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('topic', topic.toUpperCase())])).toEqual([a]);
    const negated = await idsFor('hamlet', [op('channel', 'Verona'), op('topic', topic, true)]);
    expect(negated).toContain(b);
    expect(negated).not.toContain(a);
  });

  it("the realm's empty-topic display name means the empty topic", async () => {
    const id = await toChannel('hamlet', 'Denmark', '', 'empty');
    expect(await idsFor('hamlet', [op('channel', 'Denmark'), op('topic', 'general chat')])).toContain(id);
    expect(await idsFor('hamlet', [op('channel', 'Denmark'), op('topic', '')])).toContain(id);
  });
});

describe('sender, dm, dm-including, mentions', () => {
  it('sender by email or id; negated sender excludes', async () => {
    const topic = uniqueTopic();
    const a = await toChannel('hamlet', 'Verona', topic, 'a');
    const b = await toChannel('othello', 'Verona', topic, 'b');
    const base = [op('channel', 'Verona'), op('topic', topic)];
    expect(await idsFor('hamlet', [...base, op('sender', 'othello@example.com')])).toEqual([b]);
    expect(await idsFor('hamlet', [...base, op('sender', t.userId('hamlet'))])).toEqual([a]);
    expect(await idsFor('hamlet', [...base, op('sender', t.userId('hamlet'), true)])).toEqual([b]);
    expect((await narrowed('hamlet', [op('sender', 'ghost@example.com')])).json.code).toBe('BAD_NARROW');
  });

  it('dm is the exact conversation, by ids or by emails, in both directions', async () => {
    const a = await toUsers('hamlet', ['othello'], 'one');
    const b = await toUsers('othello', ['hamlet'], 'two');
    const group = await toUsers('hamlet', ['othello', 'cordelia'], 'group');
    const one = await idsFor('hamlet', [op('dm', [t.userId('othello')])]);
    expect(one).toEqual(expect.arrayContaining([a, b]));
    expect(one).not.toContain(group);
    expect(await idsFor('hamlet', [op('dm', 'othello@example.com,cordelia@example.com')])).toContain(group);
    expect(await idsFor('hamlet', [op('dm', [t.userId('cordelia'), t.userId('othello')])])).toEqual(await idsFor('hamlet', [op('dm', 'cordelia@example.com,othello@example.com')]));
  });

  it('dm with only oneself is the self conversation', async () => {
    const id = await toUsers('hamlet', ['hamlet'], 'note to self');
    expect(await idsFor('hamlet', [op('dm', [t.userId('hamlet')])])).toContain(id);
  });

  it('dm with an unknown user is BAD_NARROW', async () => {
    expect((await narrowed('hamlet', [op('dm', [99999])])).json.code).toBe('BAD_NARROW');
  });

  it('dm-including is every direct conversation with that user', async () => {
    const a = await toUsers('hamlet', ['shiva'], 'one');
    const b = await toUsers('hamlet', ['shiva', 'cordelia'], 'group');
    const other = await toUsers('hamlet', ['cordelia'], 'not shiva');
    const ids = await idsFor('hamlet', [op('dm-including', t.userId('shiva'))]);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
    expect(ids).not.toContain(other);
  });

  it('mentions (FL 446) is explicit personal mentions of that user', async () => {
    const topic = uniqueTopic();
    const direct = await toChannel('hamlet', 'Verona', topic, 'hi @**Cordelia, Lear\'s daughter**');
    await toChannel('hamlet', 'Verona', topic, 'hi @*players*');
    await toChannel('hamlet', 'Verona', topic, 'hi @_**Cordelia, Lear\'s daughter**');
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('topic', topic), op('mentions', t.userId('cordelia'))])).toEqual([direct]);
  });
});

describe('is, has, in', () => {
  it('is:dm (and is:private) is direct messages; negated is channel messages', async () => {
    const dm = await toUsers('hamlet', ['othello'], 'dm');
    const topic = uniqueTopic();
    const ch = await toChannel('hamlet', 'Verona', topic, 'ch');
    const dms = await idsFor('hamlet', [op('is', 'dm')]);
    expect(dms).toContain(dm);
    expect(dms).not.toContain(ch);
    expect(await idsFor('hamlet', [op('is', 'private')])).toEqual(dms);
    const notDm = await idsFor('hamlet', [op('is', 'dm', true)]);
    expect(notDm).toContain(ch);
    expect(notDm).not.toContain(dm);
  });

  it('is:starred, is:unread and is:mentioned follow the personal flags', async () => {
    const topic = uniqueTopic();
    const a = await toChannel('hamlet', 'Verona', topic, 'a');
    const b = await toChannel('hamlet', 'Verona', topic, 'b @**Othello, the Moor of Venice**');
    await t.as('othello').post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' });
    await t.as('othello').post('/messages/flags', { messages: [a], op: 'add', flag: 'read' });
    const base = [op('channel', 'Verona'), op('topic', topic)];
    expect(await idsFor('othello', [...base, op('is', 'starred')])).toEqual([a]);
    expect(await idsFor('othello', [...base, op('is', 'unread')])).toEqual([b]);
    expect(await idsFor('othello', [...base, op('is', 'mentioned')])).toEqual([b]);
    expect(await idsFor('othello', [...base, op('is', 'unread', true)])).toEqual([a]);
  });

  it('is:mentioned includes wildcard and group mentions', async () => {
    const topic = uniqueTopic();
    const w = await toChannel('hamlet', 'Verona', topic, '@**all** ahoy');
    const g = await toChannel('iago', 'Verona', topic, '@*leads* ahoy');
    expect(await idsFor('othello', [op('channel', 'Verona'), op('topic', topic), op('is', 'mentioned')])).toEqual([w, g]);
  });

  it('an is: flag operator turns off channel history (personal messages only)', async () => {
    const topic = uniqueTopic();
    await toChannel('iago', 'Scotland', topic, 'x');
    expect(await idsFor('hamlet', [op('channel', 'Scotland'), op('topic', topic), op('is', 'unread', true)])).toEqual([]);
  });

  it('is:resolved is topics starting with ✔', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('hamlet', 'Verona', `✔ ${topic}`, 'done');
    const open = await toChannel('hamlet', 'Verona', topic, 'open');
    const ids = await idsFor('hamlet', [op('channel', 'Verona'), op('is', 'resolved')]);
    expect(ids).toContain(id);
    expect(ids).not.toContain(open);
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('is', 'resolved', true)])).toContain(open);
  });

  it('is:followed and is:muted follow user topics; in:home excludes muted topics and channels', async () => {
    const followed = uniqueTopic('followed');
    const muted = uniqueTopic('muted');
    const f = await toChannel('othello', 'Verona', followed, 'f');
    const m = await toChannel('othello', 'Verona', muted, 'm');
    const ins = t.server.state.db.prepare('INSERT INTO user_topics (user_id, channel_id, topic, topic_key, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?, 0)');
    ins.run(t.userId('hamlet'), channelId(t, 'Verona'), followed, topicKey(followed), 3);
    ins.run(t.userId('hamlet'), channelId(t, 'Verona'), muted, topicKey(muted), 1);
    // (Hamlet also follows the topics he started here: POST /messages auto-follows.)
    const followedIds = await idsFor('hamlet', [op('channel', 'Verona'), op('is', 'followed')]);
    expect(followedIds).toContain(f);
    expect(followedIds).not.toContain(m);
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('is', 'muted')])).toEqual([m]);
    const home = await idsFor('hamlet', [op('in', 'home')]);
    expect(home).toContain(f);
    expect(home).not.toContain(m);
    expect(await idsFor('hamlet', [op('in', 'all')])).toContain(m);
    expect(await idsFor('hamlet', [op('in', 'home', true)])).toContain(m);
  });

  it('a muted channel is muted except for unmuted or followed topics', async () => {
    const topic = uniqueTopic();
    const unmuted = uniqueTopic('unmuted');
    const a = await toChannel('iago', 'Denmark', topic, 'a');
    const b = await toChannel('iago', 'Denmark', unmuted, 'b');
    const db = t.server.state.db;
    db.prepare('UPDATE subscriptions SET is_muted = 1 WHERE user_id = ? AND channel_id = ?').run(t.userId('cordelia'), channelId(t, 'Denmark'));
    db.prepare('INSERT INTO user_topics (user_id, channel_id, topic, topic_key, visibility_policy, last_updated) VALUES (?, ?, ?, ?, 2, 0)').run(t.userId('cordelia'), channelId(t, 'Denmark'), unmuted, topicKey(unmuted));
    const home = await idsFor('cordelia', [op('in', 'home')]);
    expect(home).toContain(b);
    expect(home).not.toContain(a);
    db.prepare('UPDATE subscriptions SET is_muted = 0 WHERE user_id = ? AND channel_id = ?').run(t.userId('cordelia'), channelId(t, 'Denmark'));
  });

  it('has:link, has:image, has:attachment and has:reaction', async () => {
    const topic = uniqueTopic();
    const link = await toChannel('hamlet', 'Verona', topic, 'see https://zulip.com');
    const image = await toChannel('hamlet', 'Verona', topic, 'look https://example.com/cat.png');
    const plain = await toChannel('hamlet', 'Verona', topic, 'nothing');
    await t.as('othello').post(`/messages/${plain}/reactions`, { emoji_name: 'smile' });
    const upload = t.server.state.db
      .prepare("INSERT INTO attachments (owner_id, name, path_id, size, create_time, mime_type, data) VALUES (?, 'f.pdf', '2/ab/cdef/f.pdf', 1, 0, 'application/pdf', x'00')")
      .run(t.userId('hamlet'));
    expect(upload.changes).toBe(1);
    const att = await toChannel('hamlet', 'Verona', topic, '[f.pdf](/user_uploads/2/ab/cdef/f.pdf)');
    const base = [op('channel', 'Verona'), op('topic', topic)];
    expect(await idsFor('hamlet', [...base, op('has', 'link')])).toEqual([link, image, att]);
    expect(await idsFor('hamlet', [...base, op('has', 'image')])).toEqual([image]);
    expect(await idsFor('hamlet', [...base, op('has', 'attachment')])).toEqual([att]);
    expect(await idsFor('hamlet', [...base, op('has', 'reaction')])).toEqual([plain]);
    expect(await idsFor('hamlet', [...base, op('has', 'link', true)])).toEqual([plain]);
  });

  it('unknown is, has and in operands are BAD_NARROW', async () => {
    for (const n of [op('is', 'happy'), op('has', 'cats'), op('in', 'space')]) {
      expect((await narrowed('hamlet', [n])).json.code).toBe('BAD_NARROW');
    }
  });
});

describe('search, near, id, with', () => {
  it('search matches words of the content and topic and adds highlighted match_content / match_subject', async () => {
    const topic = uniqueTopic('bananas');
    const id = await toChannel('hamlet', 'Verona', topic, 'Ripe <b>bananas</b> today');
    await toChannel('hamlet', 'Verona', topic, 'apples only');
    const r = await narrowed('hamlet', [op('channel', 'Verona'), op('search', 'ripe')]);
    const msgs = r.json.messages as Msg[];
    expect(msgs.map((m) => m.id)).toEqual([id]);
    expect(msgs[0]!.match_content).toBe('<p><span class="highlight">Ripe</span> &lt;b&gt;bananas&lt;/b&gt; today</p>');
    expect(msgs[0]!.match_subject).toBe(topic);
    const byTopic = await narrowed('hamlet', [op('channel', 'Verona'), op('search', 'bananas')]);
    const both = byTopic.json.messages as Msg[];
    expect(both).toHaveLength(2);
    expect(both[1]!.match_subject).toContain('<span class="highlight">bananas</span>');
  });

  it('search requires every word; a quoted phrase must match as a phrase', async () => {
    const topic = uniqueTopic();
    const a = await toChannel('hamlet', 'Verona', topic, 'quick brown fox');
    await toChannel('hamlet', 'Verona', topic, 'brown quick dog');
    const base = [op('channel', 'Verona'), op('topic', topic)];
    expect(await idsFor('hamlet', [...base, op('search', 'quick fox')])).toEqual([a]);
    expect(await idsFor('hamlet', [...base, op('search', '"quick brown"')])).toEqual([a]);
  });

  it('search has no match_* fields without a search operator', async () => {
    const r = await narrowed('hamlet', [op('channel', 'Verona')]);
    expect((r.json.messages as Msg[])[0]).not.toHaveProperty('match_content');
  });

  it('an empty search operand is BAD_NARROW', async () => {
    expect((await narrowed('hamlet', [op('search', '   ')])).json.code).toBe('BAD_NARROW');
  });

  it('near is ignored by the server', async () => {
    const topic = uniqueTopic();
    const id = await toChannel('hamlet', 'Verona', topic, 'x');
    expect(await idsFor('hamlet', [op('channel', 'Verona'), op('topic', topic), op('near', 1)])).toEqual([id]);
  });

  it('id selects one message (int or string operand)', async () => {
    const id = await toChannel('hamlet', 'Verona', uniqueTopic(), 'x');
    expect(await idsFor('hamlet', [op('id', id)])).toEqual([id]);
    expect(await idsFor('hamlet', [op('id', String(id))])).toEqual([id]);
    expect(await idsFor('hamlet', [op('id', id, true), op('channel', 'Verona')])).not.toContain(id);
  });

  it("with resolves to the message's current conversation, replacing channel and topic terms", async () => {
    const topic = uniqueTopic();
    const id = await toChannel('hamlet', 'Verona', topic, 'x');
    const later = await toChannel('othello', 'Verona', topic, 'y');
    expect(await idsFor('hamlet', [op('channel', 'Denmark'), op('topic', 'stale'), op('with', id)])).toEqual([id, later]);
  });

  it('with on a direct message resolves to that conversation', async () => {
    const id = await toUsers('hamlet', ['cordelia'], 'with dm');
    expect(await idsFor('hamlet', [op('with', id)])).toContain(id);
    expect(await idsFor('hamlet', [op('with', id)])).toEqual(await idsFor('hamlet', [op('dm', [t.userId('cordelia')])]));
  });

  it('with on an inaccessible message is dropped when the other terms name a conversation, else BAD_NARROW', async () => {
    const topic = uniqueTopic();
    const secret = await toChannel('iago', 'core team', 'secret', 'x');
    const id = await toChannel('othello', 'Verona', topic, 'x');
    expect(await idsFor('othello', [op('channel', 'Verona'), op('topic', topic), op('with', secret)])).toEqual([id]);
    expect((await narrowed('othello', [op('with', secret)])).json.code).toBe('BAD_NARROW');
  });
});
