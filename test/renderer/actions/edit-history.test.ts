/** The edit history panel's entries: posted, content diffs, renames, moves, resolving. */
import { describe, expect, it } from 'vitest';
import type { EditHistory } from '../../../sync/protocol/index.js';
import { entryTitle, historyEntries } from '../../../renderer/src/actions/history.js';

const step = (over: Partial<EditHistory['steps'][number]>): EditHistory['steps'][number] => ({ user_id: 5, timestamp: 100, content_diff: null, topic: null, channel: null, ...over });

describe('historyEntries', () => {
  it('starts with the original post, then each change oldest first', () => {
    const h: EditHistory = {
      message_id: 9,
      source: 'server',
      original: 'hello',
      steps: [
        step({ timestamp: 110, content_diff: [{ op: 'same', text: 'hello' }, { op: 'added', text: 'world' }] }),
        step({ timestamp: 120, user_id: 6, topic: { from: 'a', to: 'b' } }),
        step({ timestamp: 130, channel: { from: 1, to: 2 }, topic: { from: 'b', to: 'c' } }),
      ],
    };
    const e = historyEntries(h, { userId: 4, timestamp: 90 });
    expect(e.map((x) => [x.kind, x.userId, x.timestamp])).toEqual([
      ['posted', 4, 90],
      ['edited', 5, 110],
      ['moved', 6, 120],
      ['moved', 5, 130],
    ]);
    // The original version shows what was first posted.
    expect(e[0]?.changes).toEqual([{ kind: 'original', text: 'hello' }]);
    expect(e[1]?.changes).toEqual([{ kind: 'content', diff: [{ op: 'same', text: 'hello' }, { op: 'added', text: 'world' }] }]);
    expect(e[2]?.changes).toEqual([{ kind: 'topic', from: 'a', to: 'b' }]);
    expect(e[3]?.changes).toEqual([
      { kind: 'topic', from: 'b', to: 'c' },
      { kind: 'channel', from: 1, to: 2 },
    ]);
  });

  it('a rename that only adds or drops the ✔ is resolving or unresolving', () => {
    const h: EditHistory = {
      message_id: 9,
      source: 'cache',
      original: 'x',
      steps: [step({ topic: { from: 'feud', to: '✔ feud' } }), step({ topic: { from: '✔ feud', to: 'feud' } }), step({ topic: { from: 'feud', to: '✔ war' } })],
    };
    const e = historyEntries(h, { userId: 4, timestamp: 90 });
    expect(e.slice(1).map((x) => x.changes)).toEqual([[{ kind: 'resolved' }], [{ kind: 'unresolved' }], [{ kind: 'resolved' }, { kind: 'topic', from: 'feud', to: '✔ war' }]]);
    expect(e.slice(1).map((x) => entryTitle(x, 'Iago'))).toEqual(['Resolved by Iago', 'Unresolved by Iago', 'Moved by Iago']);
  });

  it('titles say who did what', () => {
    const e = historyEntries({ message_id: 1, source: 'cache', original: 'hi', steps: [step({ content_diff: [] })] }, { userId: 4, timestamp: 90 });
    expect(entryTitle(e[0]!, 'you')).toBe('Posted by you');
    expect(entryTitle(e[1]!, 'Iago')).toBe('Edited by Iago');
  });
});
