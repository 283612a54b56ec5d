/**
 * The message text's typeahead (Zulip's composebox typeahead): when each trigger opens at the
 * caret, the order of people (conversation partners first), groups, wildcards (only where Zulip
 * offers them), silent mentions, duplicate names, channels, `#**channel>topic`, and the text a
 * choice puts in with the caret after it.
 */
import { describe, expect, it } from 'vitest';
import {
  applyChoice,
  channelSuggestions,
  emojiSuggestions,
  escapeTopic,
  findTrigger,
  matchTier,
  mentionSuggestions,
  mentionText,
  topicJump,
  topicSuggestions,
  type ChannelInfo,
  type GroupInfo,
  type MentionItem,
  type PeopleContext,
  type Trigger,
} from '../../../renderer/src/compose/text-typeahead.js';
import type { UserSummary } from '../../../sync/protocol/index.js';

const user = (user_id: number, full_name: string, over: Partial<UserSummary> = {}): UserSummary => ({ user_id, full_name, email: `u${user_id}@example.com`, is_active: true, is_bot: false, avatar_url: null, ...over });
const group = (id: number, name: string, over: Partial<GroupInfo> = {}): GroupInfo => ({ id, name, description: '', members: [1], direct_subgroup_ids: [], is_system_group: false, deactivated: false, ...over });
const channel = (channel_id: number, name: string, topics: string[] = [], over: Partial<ChannelInfo> = {}): ChannelInfo => ({ channel_id, name, is_muted: false, pin_to_top: false, topics: topics.map((topic) => ({ topic })), ...over });

/** `text` with the caret where `|` is. */
const at = (s: string): [string, number] => [s.replace('|', ''), s.indexOf('|')];
const trig = (s: string) => findTrigger(...at(s));
const names = (items: MentionItem[]) => items.map((i) => (i.type === 'user' ? i.user.full_name : i.type === 'group' ? `*${i.group.name}` : `!${i.name}`));

const ada = user(1, 'Ada Lovelace');
const alan = user(2, 'Alan Turing');
const alice = user(3, 'Alice Smith');
const bot = user(4, 'Alert Bot', { is_bot: true });
const grace = user(5, 'Grace Hopper', { email: 'amazing.grace@example.com' });
const gone = user(6, 'Al Gone', { is_active: false });
const users = [ada, alan, alice, bot, grace, gone];
const channelCtx = (over: Partial<PeopleContext> = {}): PeopleContext => ({ users, groups: [group(10, 'alpha team'), group(11, 'admins', { is_system_group: true })], conversation: { kind: 'channel', channelId: 1, topic: 'lunch' }, ...over });

describe('triggers at the caret', () => {
  it('@ opens at once, at the text start or after a space or opening punctuation; not inside a word or before letters', () => {
    expect(trig('@|')).toEqual({ kind: 'mention', silent: false, query: '', start: 0 });
    expect(trig('hi @al|')).toEqual({ kind: 'mention', silent: false, query: 'al', start: 3 });
    expect(trig('(@al|')).toMatchObject({ kind: 'mention', query: 'al' });
    expect(trig('mail a@b|')).toBeNull();
    expect(trig('hi @al|ice')).toBeNull(); // the caret inside a word
    expect(trig('hi @al|, ok')).toMatchObject({ query: 'al' }); // punctuation after the caret
    expect(trig('hi @ada lov|')).toMatchObject({ query: 'ada lov' }); // names hold spaces
    expect(trig('hi @ |')).toBeNull(); // a space right after @
    expect(trig('@**Ada Lovelace** |')).toBeNull(); // a finished mention
  });

  it('@_ is a silent mention; @** and @* prefixes are part of the syntax', () => {
    expect(trig('@_gr|')).toEqual({ kind: 'mention', silent: true, query: 'gr', start: 0 });
    expect(trig('x @**gr|')).toEqual({ kind: 'mention', silent: false, query: 'gr', start: 2 });
  });

  it(': needs a letter or + after it (smileys stay smileys), no space', () => {
    expect(trig(':|')).toBeNull();
    expect(trig('ok :)|')).toBeNull();
    expect(trig('ok :-p|')).toBeNull();
    expect(trig('at 10:30|')).toBeNull();
    expect(trig('ok :s|')).toEqual({ kind: 'emoji', query: 's', start: 3 });
    expect(trig(':+|')).toMatchObject({ kind: 'emoji', query: '+' });
  });

  it('# needs one more character; #**channel>query completes a topic, even when the channel has spaces', () => {
    expect(trig('#|')).toBeNull();
    expect(trig('see #de|')).toEqual({ kind: 'channel', query: 'de', start: 4 });
    expect(trig('see #**de|')).toEqual({ kind: 'channel', query: 'de', start: 4 });
    expect(trig('see #**design team>|')).toEqual({ kind: 'topic', channel: 'design team', query: '', start: 4 });
    expect(trig('see #**design team>new ic|')).toEqual({ kind: 'topic', channel: 'design team', query: 'new ic', start: 4 });
    expect(trig('see #**design>new**|')).not.toMatchObject({ kind: 'topic' }); // a finished topic link
  });

  it('code fences and a leading slash are not completed here', () => {
    expect(trig('```py|')).toBeNull();
    expect(trig('/po|')).toBeNull();
  });

  it('> typed right after a channel link jumps into it for a topic', () => {
    expect(topicJump(...at('see #**design**>|'))).toEqual({ text: 'see #**design>', caret: 14 });
    expect(topicJump(...at('see #**design** >| ok'))).toEqual({ text: 'see #**design> ok', caret: 14 });
    expect(topicJump(...at('a > b|'))).toBeNull();
  });
});

describe('people, groups and wildcards', () => {
  it('matches names by prefix (case kept first) and word start, then e-mail; inactive users never', () => {
    expect(matchTier('ada lovelace', 'Ada Lovelace')).toBe(0);
    expect(matchTier('Al', 'Alan')).toBe(1);
    expect(matchTier('al', 'Alan')).toBe(2);
    expect(matchTier('tur', 'Alan Turing')).toBe(3);
    expect(matchTier('x', 'Alan')).toBe(4);
    expect(matchTier('ele', 'Élena')).toBe(2); // no accents typed: accents ignored
    expect(names(mentionSuggestions(channelCtx(), 'amaz', false))).toEqual(['Grace Hopper']); // by e-mail
    expect(names(mentionSuggestions(channelCtx(), 'al', false))).not.toContain('Al Gone');
  });

  it('in a channel: one channel-wide wildcard and topic first, then people (bots after people, groups between), by name with no history', () => {
    expect(names(mentionSuggestions(channelCtx(), '', false, 20))).toEqual(['!all', '!topic', 'Ada Lovelace', 'Alan Turing', 'Alice Smith', 'Grace Hopper', '*alpha team', 'Alert Bot']);
    expect(names(mentionSuggestions(channelCtx(), 'al', false))).toEqual(['!all', 'Alan Turing', 'Alice Smith', '*alpha team', 'Alert Bot']);
    expect(names(mentionSuggestions(channelCtx(), 'cha', false))).toEqual(['!channel']);
    expect(names(mentionSuggestions(channelCtx(), 'top', false))).toEqual(['!topic']);
  });

  it('a changed user list (a new list) is matched as it is now, not as folded before', () => {
    const before = [ada, user(6, 'Émile Zola')];
    expect(names(mentionSuggestions({ ...channelCtx(), users: before }, 'emi', false))).toEqual(['Émile Zola']);
    const after = [ada, user(6, 'Zola Émile'), user(7, 'Emil Nolde', { is_active: false })];
    expect(names(mentionSuggestions({ ...channelCtx(), users: after }, 'emi', false))).toEqual(['Zola Émile']);
    expect(names(mentionSuggestions({ ...channelCtx(), users: before }, 'emi', false))).toEqual(['Émile Zola']);
  });

  it('over many people (only the first of each list kept, not all sorted): the same order a full sort gives', () => {
    // 600 people, the subscribers every seventh, in a scrambled order; ties on the name keep the list's order.
    const many = Array.from({ length: 600 }, (_, i) => user(100 + ((i * 389) % 600), `${['Al', 'Bo', 'Alma'][i % 3]} ${String.fromCharCode(97 + ((i * 7) % 26))}${i % 5}`));
    const subscribers = new Set(many.filter((u) => u.user_id % 7 === 0).map((u) => u.user_id));
    const ctx = channelCtx({ users: many, groups: [], subscribers });
    const rank = (u: UserSummary) => [subscribers.has(u.user_id) ? 0 : 1, u.full_name] as const;
    const byHand = (pred: (u: UserSummary) => boolean) =>
      many.filter(pred).sort((a, b) => rank(a)[0] - rank(b)[0] || (rank(a)[1] < rank(b)[1] ? -1 : rank(a)[1] > rank(b)[1] ? 1 : 0)).map((u) => u.full_name);
    expect(names(mentionSuggestions(ctx, 'al', false))).toEqual(['!all', ...byHand((u) => u.full_name.toLowerCase().startsWith('al')).slice(0, 7)]);
    expect(names(mentionSuggestions(ctx, '', true, 12))).toEqual(byHand(() => true).slice(0, 12));
  });

  it('in a direct message: all and everyone only, after the people; no conversation: no wildcards', () => {
    const dm = channelCtx({ conversation: { kind: 'dm' } });
    expect(names(mentionSuggestions(dm, 'e', false, 20))).toEqual(['!everyone']);
    // Name matches (wildcards last among them), groups, bots, then e-mail matches.
    expect(names(mentionSuggestions(dm, 'a', false, 20))).toEqual(['Ada Lovelace', 'Alan Turing', 'Alice Smith', '!all', '*alpha team', 'Alert Bot', 'Grace Hopper']);
    expect(names(mentionSuggestions(channelCtx({ conversation: null }), 'top', false))).toEqual([]);
  });

  it('silent mentions offer no wildcards; system and deactivated groups are not offered', () => {
    expect(names(mentionSuggestions(channelCtx(), 'al', true))).toEqual(['Alan Turing', 'Alice Smith', '*alpha team', 'Alert Bot']);
    expect(names(mentionSuggestions(channelCtx(), 'adm', false))).toEqual([]);
    expect(names(mentionSuggestions(channelCtx({ groups: [group(12, 'alpha', { deactivated: true })] }), 'alp', false))).toEqual([]);
  });

  it('orders recent partners first: subscribers, then senders in this topic, then in this channel, then DM partners', () => {
    const ctx = channelCtx({
      topicSenders: new Map([[3, 50]]),
      channelSenders: new Map([
        [2, 90],
        [3, 40],
      ]),
      dmPartners: new Map([[5, 70]]),
    });
    expect(names(mentionSuggestions(ctx, '', true, 4))).toEqual(['Alice Smith', 'Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    // Subscribers of the channel come before the rest.
    expect(names(mentionSuggestions({ ...ctx, subscribers: new Set([1]) }, '', true, 2))).toEqual(['Ada Lovelace', 'Alice Smith']);
    // A better match still beats recency: prefix matches before word-start ones.
    expect(names(mentionSuggestions(ctx, 'a', true, 3))).toEqual(['Alice Smith', 'Alan Turing', 'Ada Lovelace']);
  });

  it('an exact unique name offers just that person; at most eight items', () => {
    expect(names(mentionSuggestions(channelCtx(), 'alan turing', false))).toEqual(['Alan Turing']);
    const many = Array.from({ length: 20 }, (_, i) => user(100 + i, `Sam ${i}`));
    expect(mentionSuggestions(channelCtx({ users: many }), 'sam', false)).toHaveLength(8);
  });

  it('writes Zulip mention syntax: |id for a shared name, @_ silent, groups with one star, wildcards', () => {
    const twin = user(7, 'Ada Lovelace');
    expect(mentionText({ type: 'user', user: ada, silent: false }, users)).toBe('@**Ada Lovelace**');
    expect(mentionText({ type: 'user', user: ada, silent: false }, [...users, twin])).toBe('@**Ada Lovelace|1**');
    expect(mentionText({ type: 'user', user: twin, silent: true }, [...users, twin])).toBe('@_**Ada Lovelace|7**');
    expect(mentionText({ type: 'group', group: group(10, 'alpha team'), silent: false }, users)).toBe('@*alpha team*');
    expect(mentionText({ type: 'group', group: group(10, 'alpha team'), silent: true }, users)).toBe('@_*alpha team*');
    expect(mentionText({ type: 'wildcard', name: 'topic', detail: '' }, users)).toBe('@**topic**');
  });
});

describe('channels and topics', () => {
  const design = channel(1, 'design', ['new icons', 'colours', 'icon review']);
  const channels = [channel(5, 'delta', [], { subscribed: false }), channel(2, 'dev ops', [], { is_muted: true }), channel(3, 'deutsch', [], { pin_to_top: true }), design, channel(4, 'old design')];

  it('channels: prefix matches before word-start ones; the channel written to, then unmuted, pinned, active, unsubscribed last', () => {
    expect(channelSuggestions(channels, 'de', null).map((c) => c.name)).toEqual(['deutsch', 'design', 'dev ops', 'delta', 'old design']);
    expect(channelSuggestions(channels, 'de', 2).map((c) => c.name)).toEqual(['dev ops', 'deutsch', 'design', 'delta', 'old design']);
  });

  it('topics: the channel link first while nothing is typed, prefix matches first, a new name offered as new', () => {
    expect(topicSuggestions(design, '')).toEqual([
      { type: 'channel-link', channel: 'design' },
      { type: 'topic', channel: 'design', topic: 'new icons', isNew: false },
      { type: 'topic', channel: 'design', topic: 'colours', isNew: false },
      { type: 'topic', channel: 'design', topic: 'icon review', isNew: false },
    ]);
    expect(topicSuggestions(design, 'icon').map((t) => (t.type === 'topic' ? [t.topic, t.isNew] : t.type))).toEqual([
      ['icon', true],
      ['icon review', false],
      ['new icons', false],
    ]);
    expect(topicSuggestions(undefined, '')).toEqual([]);
  });
});

describe('putting a choice in', () => {
  const apply = (s: string, choice: Parameters<typeof applyChoice>[3]) => {
    const [text, caret] = at(s);
    const t = findTrigger(text, caret) as Trigger;
    return applyChoice(text, caret, t, choice);
  };

  it('a mention replaces what was typed, with a space after; the rest of the text stays', () => {
    expect(apply('hi @_ad| there', { type: 'mention', text: '@_**Ada Lovelace**' })).toEqual({ text: 'hi @_**Ada Lovelace**  there', caret: 22 });
    expect(apply('@al|', { type: 'mention', text: '@**all**' })).toEqual({ text: '@**all** ', caret: 9 });
  });

  it('an emoji, spaced from a word before it', () => {
    const smile = { code: '1f604', names: ['smile'] };
    expect(apply(':sm|', { type: 'emoji', entry: smile })).toEqual({ text: ':smile: ', caret: 8 });
    expect(apply('ok (:sm|', { type: 'emoji', entry: smile })).toEqual({ text: 'ok ( :smile: ', caret: 13 });
    expect(emojiSuggestions('octo').some((e) => e.names.includes('octopus'))).toBe(true);
  });

  it('a channel leaves #**channel> for its topics; a topic or the channel link closes the link', () => {
    const r = apply('see #des|', { type: 'channel', name: 'design' });
    expect(r).toEqual({ text: 'see #**design>', caret: 14 });
    expect(findTrigger(r.text, r.caret)).toMatchObject({ kind: 'topic', channel: 'design', query: '' });
    expect(apply('see #**design>ic|', { type: 'topic', channel: 'design', topic: 'icon review', isNew: false })).toEqual({ text: 'see #**design>icon review** ', caret: 28 });
    expect(apply('see #**design>|', { type: 'channel-link', channel: 'design' })).toEqual({ text: 'see #**design** ', caret: 16 });
  });

  it('Escape over topics closes the channel link and keeps the words typed', () => {
    const [text, caret] = at('see #**design>new th|');
    const t = findTrigger(text, caret) as Trigger & { kind: 'topic' };
    expect(escapeTopic(text, caret, t)).toEqual({ text: 'see #**design** new th', caret: 22 });
  });
});
