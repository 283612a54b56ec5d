/** Polls and to-do lists folded from submessages as Zulip web folds them (renderer/src/widgets/widget-data.ts). */
import { describe, expect, it } from 'vitest';
import { slashWidgetHint, voteFor, voteLabel, voterNames, widgetOf, type Poll, type Todo } from '../../../renderer/src/widgets/widget-data.js';

const ME = 10;
let next = 1;
const sub = (sender_id: number, content: object, id = next++) => ({ id, sender_id, msg_type: 'widget', content: JSON.stringify(content) });
const poll = (subs: ReturnType<typeof sub>[]) => widgetOf(subs, ME) as Poll;
const todo = (subs: ReturnType<typeof sub>[]) => widgetOf(subs, ME) as Todo;

describe('poll', () => {
  const decl = () => sub(5, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup', 'Pizza'] } });

  it('canned options (duplicates hidden), votes set and cleared per voter, options added by key', () => {
    const p = poll([
      decl(),
      sub(7, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(ME, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(7, { type: 'vote', key: 'canned,0', vote: -1 }),
      sub(7, { type: 'new_option', idx: 1, option: 'Salad' }),
      sub(ME, { type: 'vote', key: '7,1', vote: 1 }),
      sub(ME, { type: 'vote', key: 'nope,9', vote: 1 }),
    ]);
    expect(p.question).toBe('Lunch?');
    expect(p.options.map((o) => [o.key, o.text, o.voters])).toEqual([
      ['canned,0', 'Pizza', [ME]],
      ['canned,1', 'Soup', []],
      ['7,1', 'Salad', [ME]],
    ]);
    expect(voteLabel(p.options[0]!)).toBe('Vote for Pizza, 1 vote');
    expect(voteLabel(p.options[1]!)).toBe('Vote for Soup, 0 votes');
    expect(voteFor(p.options[0]!, ME)).toBe(-1);
    expect(voteFor(p.options[1]!, ME)).toBe(1);
    expect(voterNames(p.options[0]!, (id) => (id === ME ? 'Hamlet' : undefined))).toBe('Hamlet');
  });

  it('only the author changes the question; the next idx follows the user\'s own options', () => {
    const p = poll([decl(), sub(7, { type: 'question', question: 'Hijack?' }), sub(ME, { type: 'new_option', idx: 4, option: 'Tea' }), sub(5, { type: 'question', question: 'Dinner?' })]);
    expect(p.question).toBe('Dinner?');
    expect(p.nextIdx).toBe(5);
  });

  it('pending changes (negative ids) come after the server\'s, in the order made, and are marked', () => {
    const p = poll([sub(ME, { type: 'vote', key: 'canned,1', vote: 1 }, -2), sub(ME, { type: 'new_option', idx: 1, option: 'Tea' }, -1), decl(), sub(ME, { type: 'vote', key: `${ME},1`, vote: 1 }, -3)]);
    expect(p.options.map((o) => [o.text, o.voters, o.pending])).toEqual([
      ['Pizza', [], false],
      ['Soup', [ME], true],
      ['Tea', [ME], true],
    ]);
  });

  it('malformed submessages are skipped; a message without a known widget has none', () => {
    expect(poll([decl(), { id: 99, sender_id: 7, msg_type: 'widget', content: '{nope' }]).options).toHaveLength(2);
    expect(widgetOf([sub(5, { widget_type: 'zform', extra_data: {} })], ME)).toBeNull();
    expect(widgetOf([], ME)).toBeNull();
    expect(widgetOf(undefined, ME)).toBeNull();
  });
});

describe('to-do list', () => {
  it('canned tasks with descriptions, strikes toggle, new tasks keyed idx first, only the author renames', () => {
    const t = todo([
      sub(5, { widget_type: 'todo', extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'tonight' }] } }),
      sub(7, { type: 'strike', key: '0,canned' }),
      sub(ME, { type: 'new_task', key: 2, task: 'Bins', desc: '', completed: false }),
      sub(ME, { type: 'new_task', key: 3, task: 'Dishes', desc: 'again', completed: false }),
      sub(7, { type: 'strike', key: `2,${ME}` }),
      sub(7, { type: 'strike', key: `2,${ME}` }),
      sub(7, { type: 'new_task_list_title', title: 'Hijack' }),
      sub(ME, { type: 'strike', key: '0,canned' }, -1),
    ]);
    expect(t.title).toBe('Chores');
    expect(t.tasks.map((x) => [x.key, x.task, x.desc, x.completed, x.pending])).toEqual([
      ['0,canned', 'Dishes', 'tonight', false, true],
      [`2,${ME}`, 'Bins', '', false, false],
    ]);
    expect(t.nextKey).toBe(4);
  });
});

describe('composer hint', () => {
  it('names /poll and /todo only as the first word', () => {
    expect(slashWidgetHint('/poll Lunch?\nPizza')).toMatch(/^Sends a poll/);
    expect(slashWidgetHint('/todo')).toMatch(/^Sends a to-do list/);
    expect(slashWidgetHint('/polls')).toBeNull();
    expect(slashWidgetHint('a /poll')).toBeNull();
  });
});
