/**
 * The composer's draft saving: debounced (one save after typing pauses, at most `maxWait` apart
 * while typing on), flushed at once on demand, never the same text twice, a moved draft (a new
 * topic renamed, people added) saved under its new key with the old copy deleted, nothing saved
 * after a send, and a failed save kept and retried. The renderer's draft key is the
 * engine's (`draftKey`), and a restored draft is found by conversation.
 */
import { describe, expect, it, vi } from 'vitest';
import { createDraftSaver } from '../../renderer/src/compose/draft-saver.js';
import { draftFor, draftKeyOf, newTopicDraft, type DraftTo } from '../../renderer/src/compose/drafts.js';
import { draftKey } from '../../sync/engine/drafts.js';
import type { DraftView } from '../../sync/protocol/index.js';
import { handClock } from './hand-clock.js';

const clock = handClock;

const topic = (t: string): DraftTo => ({ type: 'channel', channel_id: 5, topic: t });
const flushPromises = () => new Promise((r) => setTimeout(r, 0));

function setup(opts: { failSave?: boolean } = {}) {
  const c = clock();
  const saves: [string, string][] = [];
  const removes: string[] = [];
  const saver = createDraftSaver({
    save: vi.fn(async (to: DraftTo, content: string) => {
      if (opts.failSave) throw new Error('no account');
      saves.push([draftKeyOf(to, 1), content]);
    }),
    remove: vi.fn(async (key: string) => void removes.push(key)),
    keyOf: (to) => draftKeyOf(to, 1),
    delayMs: 400,
    maxWaitMs: 3000,
    timers: c.timers,
    now: c.now,
  });
  return { c, saves, removes, saver };
}

describe('draft saving', () => {
  it('saves once typing pauses, not per keystroke', () => {
    const { c, saves, saver } = setup();
    for (const text of ['h', 'he', 'hel', 'hell', 'hello']) {
      saver.change(topic('lunch'), text);
      c.advance(100);
    }
    expect(saves).toEqual([]);
    c.advance(300);
    expect(saves).toEqual([['channel:5:lunch', 'hello']]);
    c.advance(5000);
    expect(saves).toHaveLength(1);
  });

  it('steady typing still saves every maxWait', () => {
    const { c, saves, saver } = setup();
    let text = '';
    for (let i = 0; i < 70; i++) {
      text += 'x';
      saver.change(topic('lunch'), text);
      c.advance(100);
    }
    // 7 s of typing, a key every 100 ms: saved at 3 s and 6 s, never per key.
    expect(saves.map(([, t]) => t.length)).toEqual([30, 60]);
  });

  it('flush saves at once; the same text is never saved twice', () => {
    const { c, saves, saver } = setup();
    saver.change(topic('lunch'), 'draft');
    expect(saver.pending()).toBe(true);
    saver.flush();
    expect(saves).toEqual([['channel:5:lunch', 'draft']]);
    expect(saver.pending()).toBe(false);
    expect(c.pending()).toBe(0);
    saver.change(topic('lunch'), 'draft');
    saver.flush();
    c.advance(1000);
    expect(saves).toHaveLength(1);
  });

  it('typing nothing into an empty composer writes nothing; clearing a saved draft saves the blank (which deletes it)', () => {
    const { c, saves, saver } = setup();
    saver.change(topic('lunch'), '   ');
    c.advance(1000);
    expect(saves).toEqual([]);
    saver.adopt(topic('lunch'), 'restored text');
    saver.change(topic('lunch'), '');
    c.advance(400);
    expect(saves).toEqual([['channel:5:lunch', '']]);
  });

  it('a restored draft edited back to its text is not written', () => {
    const { c, saves, saver } = setup();
    saver.adopt(topic('lunch'), 'restored');
    saver.change(topic('lunch'), 'restored!');
    saver.change(topic('lunch'), 'restored');
    c.advance(1000);
    expect(saves).toEqual([]);
  });

  it('a draft that moves (a new topic renamed while typing) is saved under the new key and the old copy deleted', async () => {
    const { c, saves, removes, saver } = setup();
    saver.change(topic('des'), 'text');
    c.advance(400);
    saver.change(topic('design'), 'text');
    c.advance(400);
    await flushPromises();
    expect(saves).toEqual([
      ['channel:5:des', 'text'],
      ['channel:5:design', 'text'],
    ]);
    expect(removes).toEqual(['channel:5:des']);
  });

  it('after a send nothing pending is saved (the engine deleted the draft); a copy under an older key goes', async () => {
    const { c, saves, removes, saver } = setup();
    saver.change(topic('des'), 'text');
    c.advance(400);
    saver.change(topic('design'), 'text, more');
    saver.sent(topic('design'));
    c.advance(5000);
    await flushPromises();
    expect(saves).toEqual([['channel:5:des', 'text']]);
    expect(removes).toEqual(['channel:5:des']);
    // The next message starts a fresh draft.
    saver.change(topic('design'), 'next one');
    c.advance(400);
    expect(saves.at(-1)).toEqual(['channel:5:design', 'next one']);
  });

  it('nowhere to go (a DM without people) waits; a failed save is tried again by the next flush', async () => {
    const { c, saves, saver } = setup();
    saver.change(null, 'hello');
    c.advance(1000);
    expect(saves).toEqual([]);

    const failing = setup({ failSave: true });
    failing.saver.change(topic('lunch'), 'kept?');
    failing.c.advance(400);
    await flushPromises();
    // Not recorded as saved: the same text is sent again.
    failing.saver.change(topic('lunch'), 'kept?');
    expect(failing.saver.pending()).toBe(true);
  });

  it('by default every keystroke reaches the engine within 250 ms, however steady the typing (a host killed then loses at most that)', () => {
    const c = clock();
    const saves: { at: number; length: number }[] = [];
    const saver = createDraftSaver({
      save: async (_to, content) => void saves.push({ at: c.now(), length: content.length }),
      remove: async () => undefined,
      keyOf: (to) => draftKeyOf(to, 1),
      timers: c.timers,
      now: c.now,
    });
    let text = '';
    const typedAt: number[] = [];
    for (let i = 0; i < 60; i++) {
      text += 'x';
      typedAt.push(c.now());
      saver.change(topic('lunch'), text);
      c.advance(i % 10 === 9 ? 700 : 60);
    }
    typedAt.forEach((at, i) => {
      const first = saves.find((s) => s.length >= i + 1);
      expect(first && first.at - at, `keystroke ${i + 1}`).toBeLessThanOrEqual(250);
    });
    // Still not one save per keystroke.
    expect(saves.length).toBeLessThan(40);
  });

  it('a save the engine did not confirm (the host away) is kept and tried again until it is', async () => {
    const c = clock();
    let hostUp = false;
    const saves: string[] = [];
    const saver = createDraftSaver({
      save: async (_to, content) => {
        if (!hostUp) throw new Error('host unreachable');
        saves.push(content);
      },
      remove: async () => undefined,
      keyOf: (to) => draftKeyOf(to, 1),
      timers: c.timers,
      now: c.now,
    });
    saver.change(topic('lunch'), 'typed while the host restarts');
    c.advance(300);
    await flushPromises();
    expect(saver.pending()).toBe(true);
    c.advance(2000);
    await flushPromises();
    expect(saves).toEqual([]);
    hostUp = true;
    c.advance(5000);
    await flushPromises();
    expect(saves).toEqual(['typed while the host restarts']);
    expect(saver.pending()).toBe(false);
    c.advance(10_000);
    await flushPromises();
    expect(saves).toHaveLength(1);
  });

  it('dispose flushes, then ignores changes', () => {
    const { c, saves, saver } = setup();
    saver.change(topic('lunch'), 'leaving');
    saver.dispose();
    expect(saves).toEqual([['channel:5:lunch', 'leaving']]);
    saver.change(topic('lunch'), 'after');
    c.advance(1000);
    expect(saves).toHaveLength(1);
  });
});

describe('draft keys', () => {
  const cases: DraftTo[] = [
    { type: 'channel', channel_id: 3, topic: 'Lunch Plans' },
    { type: 'channel', channel_id: 3, topic: '' },
    { type: 'direct', user_ids: [9, 4, 4] },
    { type: 'direct', user_ids: [7, 9] },
    { type: 'direct', user_ids: [7] },
  ];
  it('are the engine’s', () => {
    for (const to of cases) expect(draftKeyOf(to, 7)).toBe(draftKey(to, 7));
  });

  const draft = (to: DraftTo, content: string, at: number): DraftView => ({ key: draftKeyOf(to, 7), to, content, updated_at: at });

  it('find a conversation’s draft (topics without case, DMs with or without oneself)', () => {
    const list = [draft({ type: 'channel', channel_id: 3, topic: 'lunch plans' }, 'a', 2), draft({ type: 'direct', user_ids: [9] }, 'b', 1)];
    expect(draftFor(list, { type: 'channel', channel_id: 3, topic: 'Lunch Plans' }, 7)?.content).toBe('a');
    expect(draftFor(list, { type: 'direct', user_ids: [7, 9] }, 7)?.content).toBe('b');
    expect(draftFor(list, { type: 'channel', channel_id: 4, topic: 'lunch plans' }, 7)).toBeUndefined();
  });

  it('a new topic composer takes the newest draft of the channel for a topic it does not have yet', () => {
    const list = [
      draft({ type: 'channel', channel_id: 3, topic: 'lunch plans' }, 'reply', 5),
      draft({ type: 'channel', channel_id: 4, topic: 'elsewhere' }, 'other channel', 4),
      draft({ type: 'channel', channel_id: 3, topic: 'Design review' }, 'new one', 3),
      draft({ type: 'channel', channel_id: 3, topic: '' }, 'unnamed', 2),
    ];
    expect(newTopicDraft(list, 3, ['lunch plans', 'welcome'])?.content).toBe('new one');
    expect(newTopicDraft(list, 3, ['lunch plans', 'design REVIEW'])?.content).toBe('unnamed');
    expect(newTopicDraft(list, 5, [])).toBeUndefined();
  });
});
