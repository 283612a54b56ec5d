/** The composer's typeaheads: topics of the channel and people for a DM, ranked and bounded; arrow keys wrap. */
import { describe, expect, it } from 'vitest';
import { moveHighlight, peopleSuggestions, topicSuggestions } from '../../../renderer/src/shared/typeahead.js';
import type { UserSummary } from '../../../sync/protocol/index.js';

const user = (user_id: number, full_name: string, over: Partial<UserSummary> = {}): UserSummary => ({ user_id, full_name, email: `${full_name.split(' ')[0]!.toLowerCase()}@example.com`, is_active: true, is_bot: false, avatar_url: null, ...over });

describe('typeahead', () => {
  it('topics: names starting with what is typed first, then containing it; the exact name and the empty topic are not offered', () => {
    const topics = ['release schedule', 'lunch plans', 'plans for lunch', 'welcome', ''];
    expect(topicSuggestions(topics, 'lun')).toEqual(['lunch plans', 'plans for lunch']);
    expect(topicSuggestions(topics, 'PLANS')).toEqual(['lunch plans', 'plans for lunch']);
    expect(topicSuggestions(topics, 'hedu')).toEqual(['release schedule']);
    expect(topicSuggestions(topics, 'welcome')).toEqual([]);
    expect(topicSuggestions(topics, '')).toEqual(['release schedule', 'lunch plans', 'plans for lunch', 'welcome']);
    expect(topicSuggestions(Array.from({ length: 50 }, (_, i) => `t${i}`), 't')).toHaveLength(8);
  });

  it('people: active, not picked yet, by name or address, sorted by name', () => {
    const users = [user(1, 'Othello, the Moor'), user(2, 'King Hamlet'), user(3, 'Iago'), user(4, 'Old Timer', { is_active: false }), user(5, 'Hamlet Junior')];
    expect(peopleSuggestions(users, 'ham', []).map((u) => u.user_id)).toEqual([5, 2]);
    expect(peopleSuggestions(users, 'ham', [5]).map((u) => u.user_id)).toEqual([2]);
    expect(peopleSuggestions(users, 'iago@', []).map((u) => u.user_id)).toEqual([3]);
    expect(peopleSuggestions(users, 'old', []).map((u) => u.user_id)).toEqual([]);
    expect(peopleSuggestions(users, '', [1]).map((u) => u.full_name)).toEqual(['Hamlet Junior', 'Iago', 'King Hamlet']);
  });

  it('arrow keys move the highlight and wrap', () => {
    expect(moveHighlight(-1, 3, 1)).toBe(0);
    expect(moveHighlight(-1, 3, -1)).toBe(2);
    expect(moveHighlight(2, 3, 1)).toBe(0);
    expect(moveHighlight(0, 3, -1)).toBe(2);
    expect(moveHighlight(0, 0, 1)).toBe(-1);
  });
});
