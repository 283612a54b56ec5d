/** The narrow view's pure transitions: open, change sets (add / update / remove), older pages, failures. */
import { describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../../sync/protocol/views.js';
import {
  canLoad,
  changed,
  dmPeers,
  failed,
  mergeChanges,
  opened,
  opening,
  recipientLabel,
  reopening,
  searchIsPartial,
  searchToRetry,
  sideLoading,
  sideSettled,
  waitingSides,
  connectionBack,
  startsRecipientRun,
} from '../../../renderer/src/data/narrow-reducer.js';
import { narrowRequest, sameTarget, topicOf, type NarrowTarget } from '../../../renderer/src/data/target.js';
import { message, snapshot } from '../fixtures.js';

const general: NarrowTarget = { kind: 'channel', channelId: 1, channelName: 'general' };
const greetings: NarrowTarget = { kind: 'topic', channelId: 1, channelName: 'general', topic: 'greetings' };
const none = { added: [], updated: [], removed: [] };

describe('narrow requests and targets', () => {
  it('asks for the newest page of a channel by id, and of a topic with its topic term', () => {
    expect(narrowRequest(general)).toEqual({ narrow: [{ operator: 'channel', operand: 1 }], anchor: 'newest', before: 50, after: 0 });
    expect(narrowRequest(greetings, 10).narrow).toEqual([
      { operator: 'channel', operand: 1 },
      { operator: 'topic', operand: 'greetings' },
    ]);
    expect(narrowRequest({ ...greetings, topic: '' }).narrow[1]).toEqual({ operator: 'topic', operand: '' });
  });

  it('compares targets by kind, channel and topic', () => {
    expect(sameTarget(general, { ...general, channelName: 'renamed' })).toBe(true);
    expect(sameTarget(general, greetings)).toBe(false);
    expect(sameTarget(greetings, { ...greetings, topic: 'other' })).toBe(false);
    expect(sameTarget(null, null)).toBe(true);
    expect(sameTarget(null, general)).toBe(false);
    expect(topicOf(general)).toBeNull();
    expect(topicOf(greetings)).toBe('greetings');
  });
});

describe('narrow view transitions', () => {
  it('starts empty and takes the snapshot when opened', () => {
    const s0 = opening(general);
    expect(s0).toMatchObject({ phase: 'opening', viewId: null, messages: [] });
    expect(canLoad(s0, 'older')).toBe(false);
    // Each side is its own object (a store merging into one must not change the other).
    expect(s0.before).not.toBe(s0.after);
    expect(opening(general).before).not.toBe(s0.before);
    const s1 = opened(s0, 'v1', snapshot([3, 5]));
    expect(s1).toMatchObject({ phase: 'open', viewId: 'v1', key: 'channel:1' });
    expect(s1.messages.map((m) => m.id)).toEqual([3, 5]);
    expect(canLoad(s1, 'older')).toBe(true);
  });

  it('applies a change set exactly as the contract does: removed, updated, added in id order', () => {
    const s1 = opened(opening(general), 'v1', snapshot([3, 5, 7]));
    const cs = { added: [message(9), message(1)], updated: [message(5, { content: '<p>edited</p>', last_edit_timestamp: 1 })], removed: [3] };
    const s2 = changed(s1, cs);
    expect(s2.messages.map((m) => m.id)).toEqual([1, 5, 7, 9]);
    expect(s2.messages.find((m) => m.id === 5)?.content).toBe('<p>edited</p>');
    const viaContract = applyChangeSet(snapshot([3, 5, 7]), cs);
    expect(s2.messages).toEqual(viaContract.messages);
    // The input state is left alone (pure).
    expect(s1.messages.map((m) => m.id)).toEqual([3, 5, 7]);
  });

  it('keeps unchanged messages as the same objects, so reconcile by id touches only what changed', () => {
    const s1 = opened(opening(general), 'v1', snapshot([3, 5]));
    const s2 = changed(s1, { ...none, updated: [message(5, { content: '<p>new</p>' })] });
    expect(s2.messages[0]).toBe(s1.messages[0]);
    expect(s2.messages[1]).not.toBe(s1.messages[1]);
  });

  it('takes new side states from a change set and keeps the old ones otherwise', () => {
    const s1 = opened(opening(general), 'v1', snapshot([3]));
    const s2 = changed(s1, { ...none, before: { complete: true, found_end: true } });
    expect(s2.before.found_end).toBe(true);
    expect(canLoad(s2, 'older')).toBe(false);
    expect(changed(s2, none).before).toEqual({ complete: true, found_end: true });
  });

  it('loading older: one request at a time, cleared when older messages land or the side state changes', () => {
    const s1 = opened(opening(general), 'v1', snapshot([10, 11]));
    const s2 = sideLoading(s1, 'older', true);
    expect(canLoad(s2, 'older')).toBe(false);
    // A newer message does not end the wait...
    expect(changed(s2, { ...none, added: [message(12)] }).loadingOlder).toBe(true);
    // ...an older one does, and so does a side-state change (the narrow's start was reached).
    expect(changed(s2, { ...none, added: [message(4)] }).loadingOlder).toBe(false);
    expect(changed(s2, { ...none, before: { complete: true, found_end: true } }).loadingOlder).toBe(false);
    expect(sideLoading(s2, 'older', false).loadingOlder).toBe(false);
  });

  it('a page that found nothing more while not connected waits for the connection instead of spinning', () => {
    const s1 = sideLoading(opened(opening(general), 'v1', snapshot([10, 11])), 'older', true);
    // Live: another try is allowed at once.
    expect(sideSettled(s1, 'older', true, 10)).toMatchObject({ loadingOlder: false, olderWaits: false });
    // Not connected, nothing older shown: it waits, and no other page is asked for meanwhile.
    const waiting = sideSettled(s1, 'older', false, 10);
    expect(waiting).toMatchObject({ loadingOlder: false, olderWaits: true, newerWaits: false });
    expect(canLoad(waiting, 'older')).toBe(false);
    expect(waitingSides(waiting)).toEqual(['older']);
    // Also when a side state told meanwhile already ended the loading flag.
    const told = changed(s1, { ...none, before: { complete: false, found_end: false } });
    expect(told.loadingOlder).toBe(false);
    expect(sideSettled(told, 'older', false, 10).olderWaits).toBe(true);
    // The device had older ones, or the start is reached: nothing waits.
    expect(sideSettled(s1, 'older', false, 12).olderWaits).toBe(false);
    const atStart = changed(s1, { ...none, before: { complete: true, found_end: true } });
    expect(sideSettled(atStart, 'older', false, 10)).toBe(atStart);
    // Connected again: nothing waits, the page may be asked for.
    expect(canLoad(connectionBack(waiting), 'older')).toBe(true);
    expect(waitingSides(connectionBack(waiting))).toEqual([]);
    // Older messages landing (or the start reached) end the wait too.
    expect(changed(waiting, { ...none, added: [message(4)] }).olderWaits).toBe(false);
    expect(changed(waiting, { ...none, before: { complete: true, found_end: true } }).olderWaits).toBe(false);
  });

  it('fails into waiting (retried later) or error, and reopens keeping what is shown', () => {
    const s1 = opened(opening(general), 'v1', snapshot([1, 2]));
    const w = failed(opening(general), 'not synced yet', true);
    expect(w).toMatchObject({ phase: 'waiting', error: 'not synced yet', viewId: null });
    expect(failed(s1, 'boom', false)).toMatchObject({ phase: 'error', viewId: null });
    const r = reopening(sideLoading(s1, 'older', true));
    expect(r).toMatchObject({ phase: 'opening', viewId: null, loadingOlder: false });
    expect(r.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(canLoad(r, 'older')).toBe(false);
  });
});

describe('conversation runs', () => {
  const dm = (id: number, ids: number[]) => message(id, { type: 'direct', channel_id: null, channel_name: null, topic: '', dm_participants: ids.map((i) => ({ id: i, email: `u${i}@example.com`, full_name: `User ${i}` })) });

  it('starts a run at the first message and whenever the topic (case-insensitively), channel or DM conversation changes', () => {
    const ms = [message(1), message(2, { topic: 'GREETINGS' }), message(3, { topic: 'other' }), message(4, { topic: 'other', channel_id: 2 }), dm(5, [10, 11]), dm(6, [11, 10]), dm(7, [10, 12])];
    expect(ms.map((_, i) => startsRecipientRun(ms, i))).toEqual([true, false, true, true, true, false, true]);
  });

  it('labels a run by topic in a channel view, by conversation across conversations, not at all inside one', () => {
    const name = (id: number, fallback: string) => (id === 11 ? 'Iago' : fallback);
    expect(recipientLabel(message(1, { topic: '' }), general, 10, name)).toBe('general chat');
    expect(recipientLabel(message(1), greetings, 10, name)).toBeNull();
    expect(recipientLabel(message(1), { kind: 'feed' }, 10, name)).toBe('general › greetings');
    expect(recipientLabel(dm(2, [10, 11, 12]), { kind: 'starred' }, 10, name)).toBe('Direct messages with Iago, User 12');
    expect(recipientLabel(dm(2, [10]), { kind: 'search', query: 'x' }, 10, name)).toBe('Direct messages with yourself');
    expect(recipientLabel(dm(2, [10, 11]), { kind: 'dm', userIds: [11] }, 10, name)).toBeNull();
  });

  it("names a DM's view by the other participants, or the user alone", () => {
    expect(dmPeers(dm(1, [12, 10, 11]), 10)).toEqual([11, 12]);
    expect(dmPeers(dm(1, [10]), 10)).toEqual([10]);
  });
});

describe('incremental change sets', () => {
  const ids = (ms: { id: number }[]) => ms.map((m) => m.id);

  it('agrees with the contract on every mix of removed, updated and added, including ids in several lists', () => {
    const base = snapshot([2, 4, 6, 8]);
    const cases = [
      { added: [message(1), message(9), message(5)], updated: [], removed: [] },
      { added: [], updated: [message(4, { content: '<p>x</p>' })], removed: [6] },
      { added: [message(6, { content: '<p>back</p>' })], updated: [], removed: [6] },
      { added: [], updated: [message(7)], removed: [2, 8] },
      { added: [message(4, { content: '<p>a</p>' })], updated: [message(4, { content: '<p>u</p>' })], removed: [] },
    ];
    for (const cs of cases) {
      const got = mergeChanges(base.messages, cs, (m) => m);
      expect(got).toEqual(applyChangeSet(base, cs).messages);
    }
  });

  it('returns the same array for an empty change set and keeps untouched items as they are', () => {
    const base = snapshot([1, 2, 3]).messages;
    expect(mergeChanges(base, none, (m) => m)).toBe(base);
    const next = mergeChanges(base, { added: [message(4)], updated: [], removed: [1] }, (m) => m);
    expect(ids(next)).toEqual([2, 3, 4]);
    expect(next[0]).toBe(base[1]);
  });

  it('can keep the existing item of an updated message (a store reconciles it in place) and copy new ones', () => {
    const base = snapshot([1, 2]).messages;
    const copies: number[] = [];
    const next = mergeChanges(base, { added: [message(3)], updated: [message(2, { content: '<p>new</p>' })], removed: [] }, (m) => (copies.push(m.id), { ...m }), false);
    expect(next[1]).toBe(base[1]);
    expect(copies).toEqual([3]);
  });
});

describe('a view opened at a message', () => {
  const near: NarrowTarget = { ...greetings, near: 12 };

  it('asks for a page on each side of the anchor, and remembers the anchor the engine resolved', () => {
    expect(narrowRequest(near)).toEqual({ narrow: [{ operator: 'channel', operand: 1 }, { operator: 'topic', operand: 'greetings' }], anchor: 12, before: 50, after: 50 });
    const s = opened(opening(near), 'v1', snapshot([10, 12, 14], { anchor_id: 12, after: { complete: true, found_end: false } }));
    expect(s.anchorId).toBe(12);
    // Without near, no message is marked even when the engine names one.
    expect(opened(opening(greetings), 'v1', snapshot([10], { anchor_id: 10 })).anchorId).toBeNull();
  });

  it('loads newer messages one request at a time until the newest is reached', () => {
    const s = opened(opening(near), 'v1', snapshot([10, 12], { after: { complete: true, found_end: false } }));
    expect(canLoad(s, 'newer')).toBe(true);
    const asked = sideLoading(s, 'newer', true);
    expect(canLoad(asked, 'newer')).toBe(false);
    // An older message does not end the wait; a newer one, or a side-state change, does.
    expect(changed(asked, { ...none, added: [message(5)] }).loadingNewer).toBe(true);
    expect(changed(asked, { ...none, added: [message(20)] }).loadingNewer).toBe(false);
    const end = changed(asked, { ...none, after: { complete: true, found_end: true } });
    expect(end.loadingNewer).toBe(false);
    expect(canLoad(end, 'newer')).toBe(false);
    expect(sideLoading(asked, 'newer', false).loadingNewer).toBe(false);
  });
});

describe('a search answered from the device alone', () => {
  const search: NarrowTarget = { kind: 'search', query: 'lunch' };
  const filter: NarrowTarget = { kind: 'filter', terms: [{ operator: 'is', operand: 'unread', negated: false, wire: 'unread' }] };
  const incomplete = { before: { complete: false, found_end: false }, after: { complete: true, found_end: true } };
  const complete = { before: { complete: true, found_end: false }, after: { complete: true, found_end: true } };

  it('is marked partial while a side is not known complete and the sync is not live', () => {
    const v = opened(opening(search), 'v1', snapshot([3], incomplete));
    expect(searchIsPartial(v, false)).toBe(true);
    expect(searchIsPartial(opened(opening(filter), 'v1', snapshot([3], incomplete)), false)).toBe(true);
    // Live: the engine is asking the server; once its answer covers the view, nothing is said.
    expect(searchIsPartial(v, true)).toBe(false);
    expect(searchToRetry(v)).toBe(true);
    const answered = changed(v, { ...none, before: complete.before });
    expect(searchIsPartial(answered, false)).toBe(false);
    expect(searchToRetry(answered)).toBe(false);
  });

  it('says nothing for other views, a covered search, or one still opening', () => {
    expect(searchIsPartial(opened(opening(general), 'v1', snapshot([3], incomplete)), false)).toBe(false);
    expect(searchIsPartial(opened(opening(search), 'v1', snapshot([3], complete)), false)).toBe(false);
    expect(searchIsPartial(opening(search), false)).toBe(false);
    expect(searchToRetry(opened(opening(general), 'v1', snapshot([], incomplete)))).toBe(false);
  });
});
