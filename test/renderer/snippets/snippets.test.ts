/** Saved snippets: search, insertion at the caret, and what a snippet needs. */
import { describe, expect, it } from 'vitest';
import { filterSnippets, insertAtCaret, snippetProblem } from '../../../renderer/src/snippets/snippet-filter.js';

const list = [
  { id: 1, title: 'Welcome', content: 'Hello and welcome to the team!' },
  { id: 2, title: 'Standup template', content: 'Yesterday:\nToday:\nBlockers:' },
  { id: 3, title: 'Away', content: 'I am away today; back tomorrow. Team lead covers.' },
];

describe('filterSnippets', () => {
  it('lists all, by title, for an empty query', () => {
    expect(filterSnippets(list, '  ').map((s) => s.id)).toEqual([3, 2, 1]);
  });
  it('matches every word in the title or the text, title hits first', () => {
    expect(filterSnippets(list, 'team').map((s) => s.id)).toEqual([3, 1]);
    expect(filterSnippets(list, 'TODAY').map((s) => s.id)).toEqual([3, 2]);
    expect(filterSnippets(list, 'standup').map((s) => s.id)).toEqual([2]);
    expect(filterSnippets(list, 'away tomorrow').map((s) => s.id)).toEqual([3]);
    expect(filterSnippets(list, 'away welcome')).toEqual([]);
    expect(filterSnippets([...list, { id: 4, title: 'Team rules', content: 'Be kind' }], 'team').map((s) => s.id)).toEqual([4, 3, 1]);
  });
});

describe('insertAtCaret', () => {
  it('inserts into an empty text', () => {
    expect(insertAtCaret('', 0, 0, 'Hi!')).toEqual({ text: 'Hi!', caret: 3 });
  });
  it('keeps words apart and puts the caret after the insert', () => {
    expect(insertAtCaret('Hello world', 5, 5, 'dear')).toEqual({ text: 'Hello dear world', caret: 10 });
    expect(insertAtCaret('Hello ', 6, 6, 'there')).toEqual({ text: 'Hello there', caret: 11 });
    expect(insertAtCaret('end', 0, 0, 'The')).toEqual({ text: 'The end', caret: 4 });
  });
  it('replaces a selection and clamps positions', () => {
    expect(insertAtCaret('a XX b', 2, 4, 'YY')).toEqual({ text: 'a YY b', caret: 4 });
    expect(insertAtCaret('abc', 99, 120, 'd')).toEqual({ text: 'abc d', caret: 5 });
  });
});

describe('snippetProblem', () => {
  it('needs a title and a text', () => {
    expect(snippetProblem(' ', 'x')).toMatch(/title/);
    expect(snippetProblem('t', '\n')).toMatch(/text/);
    expect(snippetProblem('t', 'x')).toBeNull();
  });
});
