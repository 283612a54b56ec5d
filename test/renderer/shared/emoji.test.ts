/** Zulip's emoji classes → the Unicode character (sanitize.ts; the DOMPurify part runs in the e2e tests). */
import { describe, expect, it } from 'vitest';
import { emojiFromClass } from '../../../renderer/src/shared/sanitize.js';

describe('emoji from class', () => {
  it('turns emoji-<hex> and multi-code-point classes into characters', () => {
    expect(emojiFromClass('emoji emoji-1f44d')).toBe('👍');
    expect(emojiFromClass('emoji-1f1e9-1f1ea emoji')).toBe('🇩🇪');
  });

  it('ignores anything else: no emoji class, surrogates, out-of-range code points', () => {
    expect(emojiFromClass('emoji')).toBeUndefined();
    expect(emojiFromClass('emoji emoji-zz')).toBeUndefined();
    expect(emojiFromClass('emoji emoji-d800')).toBeUndefined();
    expect(emojiFromClass('emoji emoji-110000')).toBeUndefined();
    expect(emojiFromClass('notemoji-1f44d')).toBeUndefined();
  });
});
