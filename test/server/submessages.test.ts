/**
 * Polls and to-do lists: `/poll` and `/todo` messages get a `widget` submessage (Zulip's
 * widget.py), and POST /submessage adds interactions with Zulip's validation and a `submessage`
 * event (server/model/widgets.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetOf } from '../../server/model/widgets.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId, openQueue, uniqueTopic } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

interface Sub {
  id: number;
  sender_id: number;
  msg_type: string;
  content: string;
  message_id: number;
}
async function send(who: string, content: string, channel = 'Verona'): Promise<number> {
  return (await t.as(who).post('/messages', { type: 'stream', to: channelId(t, channel), topic: uniqueTopic(), content })).json.id as number;
}
async function subsOf(who: string, id: number): Promise<Sub[]> {
  return ((await t.as(who).get(`/messages/${id}`)).json.message as { submessages: Sub[] }).submessages;
}
const post = (who: string, id: number, data: unknown) => t.as(who).post('/submessage', { message_id: String(id), msg_type: 'widget', content: JSON.stringify(data) });

describe('widget.py: /poll and /todo content', () => {
  it('reads the question and options, dropping list markers and blank lines', () => {
    expect(widgetOf('/poll Lunch?\n- Pizza\n* Soup\n\n  Salad  ')).toEqual({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup', 'Salad'] } });
    expect(widgetOf('/poll')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: [] } });
    expect(widgetOf('/poll\nA\nB')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: ['A', 'B'] } });
  });

  it('reads the title and tasks, a description after the first colon', () => {
    expect(widgetOf("/todo Today's tasks\nTask 1: the first: really\nLast task")).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: "Today's tasks", tasks: [{ task: 'Task 1', desc: 'the first: really' }, { task: 'Last task', desc: '' }] },
    });
  });

  it('only a first token of exactly /poll or /todo makes a widget', () => {
    expect(widgetOf('/polls are fun')).toBeNull();
    expect(widgetOf('see /poll')).toBeNull();
    expect(widgetOf('/me waves')).toBeNull();
  });
});

describe('POST /messages with /poll', () => {
  it('stores a widget submessage from the sender, in fetches and in the message event', async () => {
    const q = openQueue(t, 'cordelia');
    const id = await send('hamlet', '/poll Lunch?\nPizza\nSoup');
    const subs = await subsOf('othello', id);
    expect(subs).toEqual([{ id: expect.any(Number), message_id: id, sender_id: t.userId('hamlet'), msg_type: 'widget', content: expect.any(String) }]);
    expect(JSON.parse(subs[0]!.content)).toEqual({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup'] } });
    const [ev] = await q.ofType('message');
    expect((ev as unknown as { message: { submessages: Sub[] } }).message.submessages).toEqual(subs);
    // The text is stored as sent.
    expect(((await t.as('hamlet').get(`/messages/${id}`, { apply_markdown: 'false' })).json.message as { content: string }).content).toBe('/poll Lunch?\nPizza\nSoup');
  });

  it('an ordinary message has none', async () => {
    expect(await subsOf('hamlet', await send('hamlet', 'just text'))).toEqual([]);
  });
});

describe('POST /submessage', () => {
  it('adds a vote from any reader and tells everyone who can see the message', async () => {
    const id = await send('hamlet', '/poll Lunch?\nPizza');
    const q = openQueue(t, 'cordelia');
    const outsider = openQueue(t, 'polonius');
    const vote = { type: 'vote', key: 'canned,0', vote: 1 };
    expect((await post('othello', id, vote)).json).toEqual({ result: 'success', msg: '' });
    const subs = await subsOf('hamlet', id);
    expect(subs.at(-1)).toMatchObject({ sender_id: t.userId('othello'), msg_type: 'widget', content: JSON.stringify(vote) });
    expect(await q.ofType('submessage')).toEqual([
      expect.objectContaining({ type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: subs.at(-1)!.id, sender_id: t.userId('othello'), content: JSON.stringify(vote) }),
    ]);
    expect(await outsider.ofType('submessage')).toEqual([]);
  });

  it("validates poll data as Zulip does: a vote is +1 or -1, no extra keys, only the author edits the question", async () => {
    const id = await send('hamlet', '/poll Q');
    const bad = async (who: string, data: unknown) => (await post(who, id, data)).json;
    expect(await bad('othello', { type: 'vote', key: 'canned,0', vote: 2 })).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid poll data["vote"]' });
    expect(await bad('othello', { type: 'vote', key: 'canned,0', vote: 1, extra: 1 })).toMatchObject({ code: 'BAD_REQUEST', msg: 'Unexpected arguments: extra' });
    expect(await bad('othello', { type: 'new_option', option: 'X', idx: 1001 })).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await bad('othello', { type: 'question', question: 'Mine?' })).toMatchObject({ code: 'BAD_REQUEST', msg: "You can't edit a question unless you are the author." });
    expect(await bad('othello', { type: 'nonsense' })).toMatchObject({ code: 'BAD_REQUEST', msg: 'Unknown type for poll data: nonsense' });
    expect((await t.as('othello').post('/submessage', { message_id: String(id), msg_type: 'widget', content: '{not json' })).json).toMatchObject({ msg: 'Invalid json for submessage' });
    expect((await post('hamlet', id, { type: 'question', question: 'Better?' })).status).toBe(200);
    expect((await post('othello', id, { type: 'new_option', option: 'X', idx: 1 })).status).toBe(200);
  });

  it('validates todo data: new tasks and strikes from anyone, the title from the author', async () => {
    const id = await send('hamlet', '/todo Chores\nDishes: tonight');
    expect((await post('othello', id, { type: 'strike', key: '0,canned' })).status).toBe(200);
    expect((await post('othello', id, { type: 'new_task', key: 2, task: 'Bins', desc: '', completed: false })).status).toBe(200);
    expect((await post('othello', id, { type: 'new_task', key: '2', task: 'Bins', desc: '', completed: false })).json).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await post('othello', id, { type: 'new_task_list_title', title: 'Mine' })).json).toMatchObject({ msg: "You can't edit the task list title unless you are the author." });
    expect((await post('hamlet', id, { type: 'new_task_list_title', title: 'Weekend' })).status).toBe(200);
  });

  it('refuses a first submessage from someone other than the sender, and messages the user cannot see', async () => {
    const plain = await send('hamlet', 'plain');
    expect((await post('othello', plain, { anything: 1 })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'You cannot attach a submessage to this message.' });
    const hidden = await send('iago', '/poll secret', 'core team');
    expect((await post('othello', hidden, { type: 'vote', key: 'canned,0', vote: 1 })).json).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });
});
