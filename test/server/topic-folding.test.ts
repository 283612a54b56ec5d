/**
 * Topic names compare as Zulip compares them (SQL UPPER() per character, common/topic-key.ts):
 * `Äpfel`, `ÄPFEL` and `äpfel` are one topic everywhere the server matches topics (narrows, topic
 * lists, moves, resolving, deleting, marking read, topic preferences, unread counts, event
 * narrows); `ß` and `SS` stay two topics, as in Zulip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameTopic, topicKey } from '../../common/topic-key.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, openQueue, sendAs, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A fresh topic that starts with a non-ASCII letter, in three spellings. */
function spellings() {
  const rest = uniqueTopic('pfel').slice(4);
  return { title: `Äpfel${rest}`, lower: `äpfel${rest}`, upper: `ÄPFEL${rest.toUpperCase()}` };
}

const send = async (who: string, channel: string, topic: string, content = 'x') => {
  const r = await sendAs(t, who, { type: 'stream', to: channelId(t, channel), topic, content });
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.id as number;
};
const idsIn = async (who: string, channel: string, topic: string) => {
  const r = await t.as(who).get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channelId(t, channel) },
      { operator: 'topic', operand: topic },
    ],
  });
  return (r.json.messages as Array<{ id: number }>).map((m) => m.id);
};
const row = (id: number) => t.server.state.db.prepare('SELECT topic, topic_key, channel_id FROM messages WHERE id = ?').get(id) as { topic: string; topic_key: string; channel_id: number } | undefined;

describe('topicKey', () => {
  it('folds case per character as SQL UPPER(): Ä/ä, Σ/σ/ς, Ǆ/ǅ/ǆ are equal; ß/SS, ﬁ/FI, İ/i and NFC/NFD are not', () => {
    expect(sameTopic('Äpfel', 'äpfel')).toBe(true);
    expect(sameTopic('ÄPFEL', 'äpfel')).toBe(true);
    expect(sameTopic('ΟΔΟΣ', 'οδος')).toBe(true);
    expect(sameTopic('σ', 'ς')).toBe(true);
    expect(sameTopic('ǅ', 'ǆ')).toBe(true);
    expect(sameTopic('Straße', 'STRASSE')).toBe(false);
    expect(sameTopic('ß', 'ss')).toBe(false);
    expect(sameTopic('ﬁle', 'FILE')).toBe(false);
    expect(sameTopic('İ', 'i')).toBe(false);
    expect(sameTopic('Äpfel'.normalize('NFC'), 'Äpfel'.normalize('NFD'))).toBe(false);
    expect(sameTopic('castle', 'CASTLE')).toBe(true);
    expect(topicKey('𐐨𐐯')).toBe(topicKey('𐐀𐐇')); // Deseret: astral letters fold too
  });
});

describe('one topic whatever the case of its non-ASCII letters', () => {
  it('a topic narrow finds every spelling; ß and SS stay apart', async () => {
    const s = spellings();
    const a = await send('hamlet', 'Verona', s.title);
    const b = await send('othello', 'Verona', s.lower);
    const c = await send('iago', 'Verona', s.upper);
    for (const spelling of [s.title, s.lower, s.upper]) expect(await idsIn('hamlet', 'Verona', spelling)).toEqual([a, b, c]);
    const strasse = `Straße ${uniqueTopic()}`;
    const sz = await send('hamlet', 'Verona', strasse);
    const ss = await send('hamlet', 'Verona', strasse.replace('ß', 'SS'));
    expect(await idsIn('hamlet', 'Verona', strasse)).toEqual([sz]);
    expect(await idsIn('hamlet', 'Verona', strasse.replace('ß', 'SS'))).toEqual([ss]);
  });

  it('the channel topic list has one entry, named by the newest spelling', async () => {
    const s = spellings();
    await send('hamlet', 'Verona', s.title);
    const last = await send('hamlet', 'Verona', s.lower);
    const topics = (await t.as('hamlet').get(`/users/me/${channelId(t, 'Verona')}/topics`)).json.topics as Array<{ name: string; max_id: number }>;
    expect(topics.filter((x) => sameTopic(x.name, s.title))).toEqual([{ name: s.lower, max_id: last }]);
  });

  it('moving the topic (change_all) moves every spelling, and resolving resolves them all', async () => {
    const s = spellings();
    const a = await send('hamlet', 'Verona', s.title);
    const b = await send('hamlet', 'Verona', s.lower);
    const resolved = await t.as('iago').patch(`/messages/${a}`, { topic: `✔ ${s.title}`, propagate_mode: 'change_all', send_notification_to_new_thread: false });
    expect(resolved.json.result, JSON.stringify(resolved.json)).toBe('success');
    expect([row(a)?.topic, row(b)?.topic]).toEqual([`✔ ${s.title}`, `✔ ${s.title}`]);
    const moved = await t.as('iago').patch(`/messages/${b}`, { topic: 'Birnen', stream_id: channelId(t, 'Denmark'), propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    expect(moved.json.result, JSON.stringify(moved.json)).toBe('success');
    for (const id of [a, b]) expect(row(id)).toEqual({ topic: 'Birnen', topic_key: 'birnen', channel_id: channelId(t, 'Denmark') });
  });

  it('delete_topic with one spelling deletes every spelling', async () => {
    const s = spellings();
    const ids = [await send('hamlet', 'Verona', s.title), await send('hamlet', 'Verona', s.lower)];
    const r = await t.as('iago').post(`/streams/${channelId(t, 'Verona')}/delete_topic`, { topic_name: s.upper });
    expect(r.json).toMatchObject({ result: 'success', complete: true });
    for (const id of ids) expect(row(id)).toBeUndefined();
  });

  it('mark_topic_as_read with one spelling reads every spelling', async () => {
    const s = spellings();
    const ids = [await send('hamlet', 'Verona', s.title), await send('othello', 'Verona', s.lower)];
    const r = await t.as('cordelia').post('/mark_topic_as_read', { stream_id: channelId(t, 'Verona'), topic_name: s.upper });
    expect(r.json.result, JSON.stringify(r.json)).toBe('success');
    const unread = t.server.state.db.prepare(`SELECT COUNT(*) FROM user_messages WHERE user_id = ? AND message_id IN (${ids.join(',')}) AND (flags & 1) = 0`).pluck().get(t.userId('cordelia'));
    expect(unread).toBe(0);
  });

  it('a topic preference set with one spelling applies to all, and another spelling updates the same one', async () => {
    const s = spellings();
    const a = await send('hamlet', 'Verona', s.title);
    const set = (topic: string, visibility_policy: number) => t.as('cordelia').post('/user_topics', { stream_id: channelId(t, 'Verona'), topic, visibility_policy });
    expect((await set(s.lower, 1)).json.result).toBe('success');
    const muted = await t.as('cordelia').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'is', operand: 'muted' }] });
    expect((muted.json.messages as Array<{ id: number }>).map((m) => m.id)).toContain(a);
    expect((await set(s.upper, 3)).json.result).toBe('success');
    const rows = t.server.state.db.prepare('SELECT topic, visibility_policy FROM user_topics WHERE user_id = ? AND topic_key = ?').all(t.userId('cordelia'), topicKey(s.title));
    expect(rows).toEqual([{ topic: s.upper, visibility_policy: 3 }]);
    expect((await set(s.title, 0)).json.result).toBe('success');
    expect(t.server.state.db.prepare('SELECT COUNT(*) FROM user_topics WHERE user_id = ? AND topic_key = ?').pluck().get(t.userId('cordelia'), topicKey(s.title))).toBe(0);
  });

  it("register's unread_msgs counts the spellings as one topic; a queue narrowed to one spelling gets all", async () => {
    const s = spellings();
    const q = openQueue(t, 'cordelia', { narrow: [['topic', s.upper]] });
    const ids = [await send('hamlet', 'Verona', s.title), await send('othello', 'Verona', s.lower)];
    expect((await q.ofType('message')).map((e) => (e.message as { id: number }).id)).toEqual(ids);
    const reg = await t.as('cordelia').post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    const streams = (reg.json.unread_msgs as { streams: Array<{ topic: string; unread_message_ids: number[] }> }).streams;
    expect(streams.filter((x) => sameTopic(x.topic, s.title))).toEqual([expect.objectContaining({ unread_message_ids: ids })]);
  });

  it('every stored message carries the key of its topic', () => {
    const rows = t.server.state.db.prepare('SELECT topic, topic_key FROM messages').all() as Array<{ topic: string; topic_key: string }>;
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.filter((r) => r.topic_key !== topicKey(r.topic))).toEqual([]);
  });
});
