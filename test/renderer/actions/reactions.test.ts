/** Reactions under a message: grouped by emoji, who reacted, the toggle a click makes. */
import { describe, expect, it } from 'vitest';
import type { LocalReaction } from '../../../sync/protocol/index.js';
import { groupReactions, reactionGlyph, reactionLabel, reactionTitle, reactionToggle, reactors } from '../../../renderer/src/actions/reactions.js';

const r = (user_id: number, emoji_name: string, emoji_code: string, reaction_type = 'unicode_emoji'): LocalReaction => ({ user_id, emoji_name, emoji_code, reaction_type });
const names: Record<number, string> = { 2: 'King Hamlet', 3: 'Iago', 4: 'Cordelia' };
const name = (id: number) => names[id];

describe('groupReactions', () => {
  it('groups by type and code whatever the name, in order of first appearance, each person once', () => {
    const groups = groupReactions([r(2, 'tada', '1f389'), r(3, '+1', '1f44d'), r(1, 'thumbs_up', '1f44d'), r(3, '+1', '1f44d'), r(4, 'zulip', 'zulip', 'zulip_extra_emoji')], 1);
    expect(groups.map((g) => [g.emoji_name, g.userIds, g.mine])).toEqual([
      ['tada', [2], false],
      ['+1', [3, 1], true],
      ['zulip', [4], false],
    ]);
  });

  it('nothing for no reactions; nobody is "mine" before the own id is known', () => {
    expect(groupReactions([], 1)).toEqual([]);
    expect(groupReactions([r(1, 'tada', '1f389')], null)[0]?.mine).toBe(false);
  });
});

describe('reactionToggle', () => {
  it('adds when the user has not reacted with that emoji', () => {
    expect(reactionToggle([r(2, '+1', '1f44d')], 1, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' })).toEqual({
      op: 'add',
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
  });

  it('removes the user’s own reaction with the name it was made with', () => {
    expect(reactionToggle([r(1, '+1', '1f44d')], 1, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' })).toEqual({
      op: 'remove',
      emoji_name: '+1',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
  });

  it('keeps the special types; an unknown type is sent as Unicode', () => {
    expect(reactionToggle([], 1, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }).reaction_type).toBe('zulip_extra_emoji');
    expect(reactionToggle([], 1, { emoji_name: 'x', emoji_code: '274c', reaction_type: 'future_type' }).reaction_type).toBe('unicode_emoji');
  });
});

describe('who reacted', () => {
  it('puts the user first as "you", then names, joined as a sentence', () => {
    expect(reactors([2], 1, name)).toBe('King Hamlet');
    expect(reactors([2, 1], 1, name)).toBe('you and King Hamlet');
    expect(reactors([2, 3, 1], 1, name)).toBe('you, King Hamlet and Iago');
    expect(reactors([9], 1, name)).toBe('user 9');
  });

  it('labels and tooltips say the emoji, the count and the people', () => {
    const [g] = groupReactions([r(2, 'working_on_it', '1f6e0'), r(1, 'working_on_it', '1f6e0')], 1);
    if (!g) throw new Error('no group');
    const who = reactors(g.userIds, 1, name);
    expect(reactionLabel(g, who)).toBe('working on it: 2, you and King Hamlet');
    expect(reactionTitle(g, who)).toBe('You (click to remove) and King Hamlet reacted with :working_on_it:');
    const [other] = groupReactions([r(2, 'tada', '1f389')], 1);
    if (!other) throw new Error('no group');
    expect(reactionTitle(other, 'King Hamlet')).toBe('King Hamlet reacted with :tada:');
  });

  it('shows the character of a Unicode emoji, the name of any other', () => {
    expect(reactionGlyph({ emoji_code: '1f389', emoji_name: 'tada', reaction_type: 'unicode_emoji' })).toBe('🎉');
    expect(reactionGlyph({ emoji_code: 'zulip', emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' })).toBe(':zulip:');
    expect(reactionGlyph({ emoji_code: '42', emoji_name: 'parrot', reaction_type: 'realm_emoji' })).toBe(':parrot:');
  });
});
