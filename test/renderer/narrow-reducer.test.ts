/** The narrow view's pure transitions: open, change sets (add / update / remove), older pages, failures. */
import { describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../sync/protocol/views.js';
import {
  canLoadOlder,
  changed,
  failed,
  narrowRequest,
  olderRequested,
  olderSettled,
  opened,
  opening,
  reopening,
  sameTarget,
  startsTopicRun,
  topicOf,
  type NarrowTarget,
} from '../../renderer/src/narrow/narrow-reducer.js';
import { message, snapshot } from './fixtures.js';

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
    expect(canLoadOlder(s0)).toBe(false);
    // Each side is its own object (a store merging into one must not change the other).
    expect(s0.before).not.toBe(s0.after);
    expect(opening(general).before).not.toBe(s0.before);
    const s1 = opened(s0, 'v1', snapshot([3, 5]));
    expect(s1).toMatchObject({ phase: 'open', viewId: 'v1', key: 'channel:1' });
    expect(s1.messages.map((m) => m.id)).toEqual([3, 5]);
    expect(canLoadOlder(s1)).toBe(true);
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
    expect(canLoadOlder(s2)).toBe(false);
    expect(changed(s2, none).before).toEqual({ complete: true, found_end: true });
  });

  it('loading older: one request at a time, cleared when older messages land or the side state changes', () => {
    const s1 = opened(opening(general), 'v1', snapshot([10, 11]));
    const s2 = olderRequested(s1);
    expect(canLoadOlder(s2)).toBe(false);
    // A newer message does not end the wait...
    expect(changed(s2, { ...none, added: [message(12)] }).loadingOlder).toBe(true);
    // ...an older one does, and so does a side-state change (the narrow's start was reached).
    expect(changed(s2, { ...none, added: [message(4)] }).loadingOlder).toBe(false);
    expect(changed(s2, { ...none, before: { complete: true, found_end: true } }).loadingOlder).toBe(false);
    expect(olderSettled(s2).loadingOlder).toBe(false);
  });

  it('fails into waiting (retried later) or error, and reopens keeping what is shown', () => {
    const s1 = opened(opening(general), 'v1', snapshot([1, 2]));
    const w = failed(opening(general), 'not synced yet', true);
    expect(w).toMatchObject({ phase: 'waiting', error: 'not synced yet', viewId: null });
    expect(failed(s1, 'boom', false)).toMatchObject({ phase: 'error', viewId: null });
    const r = reopening(olderRequested(s1));
    expect(r).toMatchObject({ phase: 'opening', viewId: null, loadingOlder: false });
    expect(r.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(canLoadOlder(r)).toBe(false);
  });
});

describe('topic runs in a channel view', () => {
  it('starts a run at the first message and whenever the topic (case-insensitively) or channel changes', () => {
    const ms = [message(1), message(2, { topic: 'GREETINGS' }), message(3, { topic: 'other' }), message(4, { topic: 'other', channel_id: 2 })];
    expect(ms.map((_, i) => startsTopicRun(ms, i))).toEqual([true, false, true, true]);
  });
});
