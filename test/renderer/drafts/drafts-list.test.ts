/** The drafts list (#drafts): order, where each draft goes as the list says it, and how Edit continues it. */
import { describe, expect, it } from 'vitest';
import { draftOpening, draftWhere, newestFirst } from '../../../renderer/src/drafts/drafts-list.js';
import { draftKeyOf, type DraftNames } from '../../../renderer/src/data/drafts.js';
import { draftKey } from '../../../sync/engine/drafts.js';

const names: DraftNames = {
  selfId: 7,
  channelName: (id) => (id === 3 ? 'general' : undefined),
  userName: (id) => ({ 4: 'Iago', 9: 'Othello', 7: 'Hamlet' })[id],
};

describe('drafts list', () => {
  it('newest first, equal times by key', () => {
    const list = [
      { key: 'b', updated_at: 5 },
      { key: 'c', updated_at: 9 },
      { key: 'a', updated_at: 5 },
    ];
    expect(newestFirst(list).map((d) => d.key)).toEqual(['c', 'a', 'b']);
    expect(list.map((d) => d.key)).toEqual(['b', 'c', 'a']);
  });

  it('says where each draft goes: a topic, an unnamed new topic, a DM group, notes to self, nobody yet', () => {
    expect(draftWhere({ type: 'channel', channel_id: 3, topic: 'lunch' }, names)).toBe('#general › lunch');
    expect(draftWhere({ type: 'channel', channel_id: 3, topic: '' }, names)).toBe('#general, new topic (no name yet)');
    expect(draftWhere({ type: 'channel', channel_id: 8, topic: 'x' }, names)).toBe('#channel 8 › x');
    expect(draftWhere({ type: 'direct', user_ids: [9, 7, 4] }, names)).toBe('Direct message to Othello, Iago');
    expect(draftWhere({ type: 'direct', user_ids: [7] }, names)).toBe('Direct message to yourself');
    expect(draftWhere({ type: 'direct', user_ids: [12] }, names)).toBe('Direct message to user 12');
    expect(draftWhere({ type: 'direct', user_ids: [] }, names)).toBe('New direct message (nobody picked yet)');
  });

  it('Edit opens the conversation; a new topic its channel; a DM with nobody a new-DM composer over the inbox', () => {
    expect(draftOpening({ type: 'channel', channel_id: 3, topic: 'lunch plans' }, names)).toEqual({ hash: '#narrow/channel/3-general/topic/lunch.20plans', newDm: false });
    expect(draftOpening({ type: 'channel', channel_id: 3, topic: '' }, names)).toEqual({ hash: '#narrow/channel/3-general', newDm: false });
    expect(draftOpening({ type: 'direct', user_ids: [7, 4] }, names)).toEqual({ hash: '#narrow/dm/4-Iago', newDm: false });
    expect(draftOpening({ type: 'direct', user_ids: [] }, names)).toEqual({ hash: '#inbox', newDm: true });
  });

  it('a DM with nobody picked yet has one key, the same in the renderer and the engine', () => {
    expect(draftKeyOf({ type: 'direct', user_ids: [] }, 7)).toBe('dm:');
    expect(draftKey({ type: 'direct', user_ids: [] }, 7)).toBe('dm:');
    expect(draftKeyOf({ type: 'direct', user_ids: [9, 7, 4] }, 7)).toBe(draftKey({ type: 'direct', user_ids: [9, 7, 4] }, 7));
  });
});
