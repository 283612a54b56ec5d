/** The search box's pure parts: reading and writing its text, its URL, and the typeahead's suggestions. */
import { describe, expect, it } from 'vitest';
import { parseHash } from '../../../renderer/src/core/hash.js';
import { hashOfQuery, parseQuery, queryOfHashTerms, tokenize, unparseQuery } from '../../../renderer/src/search/query.js';
import { phraseMatch, splitLast, suggest, type SuggestionLookups } from '../../../renderer/src/search/suggestions.js';

const lookups: SuggestionLookups = {
  channels: [
    { channel_id: 1, name: 'general', is_subscribed: true, topics: [{ topic: 'lunch plans' }, { topic: 'greetings' }, { topic: '' }] },
    { channel_id: 2, name: 'Verona', is_subscribed: true, topics: [{ topic: 'verona walks' }, { topic: 'castle' }] },
    { channel_id: 3, name: 'Venice archive', is_subscribed: false, topics: [] },
    { channel_id: 5, name: 'core team', is_subscribed: true, topics: [] },
  ],
  users: [
    { user_id: 8, email: 'hamlet@example.com', full_name: 'King Hamlet', is_active: true, is_bot: false },
    { user_id: 9, email: 'iago@example.com', full_name: 'Iago', is_active: true, is_bot: false },
    { user_id: 10, email: 'old@example.com', full_name: 'Old Hand', is_active: false, is_bot: false },
    { user_id: 11, email: 'verona-bot@example.com', full_name: 'Verona Bot', is_active: true, is_bot: true },
  ],
};
const queries = (text: string) => suggest(text, lookups).map((s) => s.query);

describe('the search text', () => {
  it('reads operators, negation, quoted operands and the words around them', () => {
    expect(tokenize('channel:"core team" topic:"a b"  word')).toEqual(['channel:"core team"', 'topic:"a b"', 'word']);
    expect(parseQuery('hello stream:Verona -is:resolved from:iago@example.com world')).toEqual([
      { operator: 'channel', operand: 'Verona', negated: false },
      { operator: 'is', operand: 'resolved', negated: true },
      { operator: 'sender', operand: 'iago@example.com', negated: false },
      { operator: 'search', operand: 'hello world', negated: false },
    ]);
    // Not an operator: searched for as text; an operator with nothing after it is left out; `topic:""` is the empty topic.
    expect(parseQuery('time:12:30 channel:')).toEqual([{ operator: 'search', operand: 'time:12:30', negated: false }]);
    expect(parseQuery('channel:general topic:""')).toEqual([
      { operator: 'channel', operand: 'general', negated: false },
      { operator: 'topic', operand: '', negated: false },
    ]);
    expect(unparseQuery(parseQuery('channel:"core team" -has:link  lunch'))).toBe('channel:"core team" -has:link lunch');
  });

  it('opens Zulip’s URL: channels and people by id slugs, names not known left as typed', () => {
    const names = { channels: lookups.channels, users: lookups.users };
    expect(hashOfQuery('channel:verona topic:"verona walks"', names)).toBe('#narrow/channel/2-Verona/topic/verona.20walks');
    expect(hashOfQuery('lunch', names)).toBe('#narrow/search/lunch');
    expect(hashOfQuery('sender:iago@example.com -is:resolved pizza', names)).toBe('#narrow/sender/9-Iago/-is/resolved/search/pizza');
    expect(hashOfQuery('dm:iago@example.com,hamlet@example.com', names)).toBe('#narrow/dm/8,9-group');
    expect(hashOfQuery('channel:nowhere', names)).toBe('#narrow/channel/nowhere');
    expect(hashOfQuery('   ', names)).toBeNull();
    const route = parseHash('#narrow/channel/5-core-team/sender/8-King-Hamlet/has/image');
    expect(route.kind === 'narrow' && queryOfHashTerms(route.terms, names)).toBe('channel:"core team" sender:hamlet@example.com has:image');
  });
});

describe('the typeahead', () => {
  it('offers the operators when nothing is typed, and after a finished term', () => {
    expect(queries('')).toEqual(['channel:', 'topic:', 'sender:', 'dm:', 'is:', 'has:', 'near:']);
    // A channel is already there: no second channel, and no DM with it.
    expect(queries('channel:general ')).toEqual(['channel:general topic:', 'channel:general sender:', 'channel:general is:', 'channel:general has:', 'channel:general near:']);
  });

  it('completes an operator by name (and Zulip’s synonyms), negated with -', () => {
    const s = suggest('ch', lookups);
    expect(s[0]).toMatchObject({ kind: 'search', query: 'ch', label: 'Search for “ch”' });
    expect(s[1]).toMatchObject({ kind: 'operator', query: 'channel:' });
    expect(queries('from')).toContain('sender:');
    expect(queries('-')).toEqual(['-channel:', '-topic:', '-sender:', '-dm:', '-is:', '-has:', '-near:']);
  });

  it('completes channels, subscribed first, matching any word of the name', () => {
    expect(queries('channel:ve')).toEqual(['channel:Verona ', 'channel:"Venice archive" ']);
    expect(queries('channel:team')).toEqual(['channel:"core team" ']);
    expect(suggest('lunch channel:ver', lookups)[0]).toMatchObject({ kind: 'channel', query: 'lunch channel:Verona ', label: 'Messages in #Verona', term: 'channel:Verona' });
    expect(suggest('-channel:gen', lookups)[0]).toMatchObject({ query: '-channel:general ', label: 'Exclude: messages in #general' });
  });

  it('completes the topics of the channel already typed, and none without one', () => {
    expect(queries('channel:general topic:')).toEqual(['channel:general topic:"lunch plans" ', 'channel:general topic:greetings ']);
    expect(queries('channel:general topic:pla')).toEqual(['channel:general topic:"lunch plans" ']);
    expect(queries('channel:Verona cas')).toContain('channel:Verona topic:castle ');
    // No channel: nothing to list, the typed topic is searched as it is.
    expect(queries('topic:castle')).toEqual(['topic:castle ']);
    expect(queries('channel:general topic:"lunch p')).toEqual(['channel:general topic:"lunch plans" ']);
  });

  it('completes people by name or email (active ones), for sender and dm, groups too', () => {
    expect(queries('sender:ha')).toEqual(['sender:hamlet@example.com ']);
    expect(suggest('sender:ki', lookups)[0]?.label).toBe('Sent by King Hamlet');
    expect(queries('sender:old')).toEqual(['sender:old ']);
    expect(queries('dm:iago@example.com,ha')).toEqual(['dm:iago@example.com,hamlet@example.com ']);
    expect(queries('iag')).toEqual(['iag', 'sender:iago@example.com ', 'dm:iago@example.com ']);
  });

  it('completes is: and has: values, without repeating one already in the query', () => {
    expect(queries('is:')).toEqual(['is:dm ', 'is:starred ', 'is:mentioned ', 'is:followed ', 'is:alerted ', 'is:unread ', 'is:muted ', 'is:resolved ']);
    expect(queries('is:starred is:s')).toEqual(['is:starred is:s ']);
    expect(queries('has:')).toEqual(['has:link ', 'has:image ', 'has:attachment ', 'has:reaction ']);
    expect(queries('-is:res')).toEqual(['-is:resolved ']);
    expect(queries('link')).toContain('has:link ');
  });

  it('matches words the way Zulip does, and splits off the word being typed', () => {
    expect(phraseMatch('pl', 'lunch plans')).toBe(true);
    expect(phraseMatch('unch', 'lunch plans')).toBe(false);
    expect(splitLast('channel:general top')).toEqual({ base: 'channel:general ', last: 'top' });
    expect(splitLast('topic:"a b')).toEqual({ base: '', last: 'topic:"a b' });
    expect(splitLast('x ')).toEqual({ base: 'x ', last: '' });
  });
});
