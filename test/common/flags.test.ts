/** common/flags.ts: flag names in Zulip's order over any store's bit table. */
import { describe, expect, it } from 'vitest';
import { flagBitsOf, flagNamesOf, MESSAGE_FLAGS, type FlagBits } from '../../common/flags.js';

// Two tables with different positions, as the client's and the server's are.
const ASCENDING: FlagBits = Object.fromEntries(MESSAGE_FLAGS.map((f, i) => [f, 1 << i])) as unknown as FlagBits;
const SHUFFLED: FlagBits = { read: 1, starred: 2, mentioned: 4, stream_wildcard_mentioned: 8, topic_wildcard_mentioned: 16, has_alert_word: 32, historical: 64, collapsed: 128 };

describe('flagNamesOf / flagBitsOf', () => {
  for (const [name, table] of [['ascending', ASCENDING], ['shuffled', SHUFFLED]] as const) {
    it(`names come out in Zulip's order whatever the positions (${name})`, () => {
      const all = flagBitsOf([...MESSAGE_FLAGS].reverse(), table);
      expect(flagNamesOf(all, table)).toEqual([
        'read',
        'starred',
        'collapsed',
        'mentioned',
        'stream_wildcard_mentioned',
        'topic_wildcard_mentioned',
        'wildcard_mentioned',
        'has_alert_word',
        'historical',
      ]);
    });

    it(`wildcard_mentioned is derived from either wildcard, never stored (${name})`, () => {
      expect(flagNamesOf(table.stream_wildcard_mentioned, table)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
      expect(flagNamesOf(table.topic_wildcard_mentioned, table)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
      expect(flagBitsOf(['wildcard_mentioned'], table)).toBe(0);
    });
  }

  it('unknown names and bits outside the table are ignored', () => {
    expect(flagBitsOf(['read', 'some_future_flag', 'constructor', 'toString'], SHUFFLED)).toBe(SHUFFLED.read);
    expect(flagNamesOf(SHUFFLED.starred | 256 | 1024, SHUFFLED)).toEqual(['starred']);
  });
});
