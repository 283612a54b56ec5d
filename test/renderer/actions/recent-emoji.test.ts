/** The picker's "Recently used" list and the realm's custom emoji as picker entries (pure parts). */
import { describe, expect, it } from 'vitest';
import { customEmojiEntries, EMOJI, searchEmoji } from '../../../renderer/src/shared/emoji.js';
import { emojiKey, parseRecent, RECENT_MAX, recentEntries, withRecent } from '../../../renderer/src/actions/recent-emoji.js';

const custom = customEmojiEntries([
  { id: '1', name: 'shipit', source_url: '/user_avatars/2/emoji/images/1.png', deactivated: false },
  { id: '3', name: 'old_one', source_url: '/user_avatars/2/emoji/images/3.png', deactivated: true },
]);

describe('recently used emoji', () => {
  it('puts the newest pick first, once, and keeps at most RECENT_MAX', () => {
    expect(withRecent(['unicode_emoji:1f44d', 'unicode_emoji:2764'], 'unicode_emoji:2764')).toEqual(['unicode_emoji:2764', 'unicode_emoji:1f44d']);
    const many = Array.from({ length: RECENT_MAX }, (_, i) => `unicode_emoji:${i}`);
    const next = withRecent(many, 'realm_emoji:1');
    expect(next).toHaveLength(RECENT_MAX);
    expect(next[0]).toBe('realm_emoji:1');
    expect(next).not.toContain(`unicode_emoji:${RECENT_MAX - 1}`);
  });

  it('keys tell Unicode and custom emoji apart, and resolve back to entries (gone ones skipped)', () => {
    const octopus = EMOJI.find((e) => e.names[0] === 'octopus')!;
    expect(emojiKey(octopus)).toBe('unicode_emoji:1f419');
    expect(emojiKey(custom[0]!)).toBe('realm_emoji:1');
    expect(recentEntries(['realm_emoji:1', 'realm_emoji:3', 'unicode_emoji:1f419', 'unicode_emoji:nope'], [...EMOJI, ...custom])).toEqual([custom[0], octopus]);
  });

  it('reads anything stored defensively', () => {
    expect(parseRecent(null)).toEqual([]);
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('{"a":1}')).toEqual([]);
    expect(parseRecent('["unicode_emoji:1f44d", 5]')).toEqual(['unicode_emoji:1f44d']);
  });
});

describe('custom emoji entries', () => {
  it('active ones only, in the Custom category, code = id, with their image path; search finds them', () => {
    expect(custom).toEqual([{ code: '1', names: ['shipit'], category: 'Custom', url: '/user_avatars/2/emoji/images/1.png' }]);
    expect(searchEmoji('shipi', [...EMOJI, ...custom])[0]).toBe(custom[0]);
  });
});
