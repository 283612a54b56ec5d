/**
 * The router's pure parts: Zulip's fragment encoding (hash_util / internal_url), parsing and
 * building every route the app knows with round trips (non-ASCII, dots, spaces, percent signs,
 * slashes, the empty topic), legacy forms, URL terms ↔ views, what the screen shows for each
 * route, and which links in messages stay inside the app.
 */
import { describe, expect, it } from 'vitest';
import { buildHash, canonicalOperator, channelIdOfSlug, decodeHashComponent, dmSlug, encodeHashComponent, parseHash, userIdsOfSlug } from '../../../renderer/src/core/hash.js';
import { internalHash } from '../../../renderer/src/router/links.js';
import { screenOf } from '../../../renderer/src/router/resolve.js';
import { hashOfTarget, narrowRequest, sameTarget, targetOfTerms, termsOfTarget, type Lookups, type NarrowTarget } from '../../../renderer/src/data/target.js';
import { viewTitle } from '../../../renderer/src/narrow/titles.js';

const channels = [
  { channel_id: 1, name: 'general' },
  { channel_id: 5, name: 'core team' },
];
const users = [
  { user_id: 8, email: 'hamlet@example.com', full_name: 'King Hamlet' },
  { user_id: 9, email: 'iago@example.com', full_name: 'Iago' },
];
const lookups: Lookups = {
  channelsLoaded: true,
  channelByName: (n) => channels.find((c) => c.name.toLowerCase() === n.toLowerCase()),
  usersLoaded: true,
  userIdByEmail: (e) => users.find((u) => u.email === e)?.user_id,
};
const notLoaded: Lookups = { ...lookups, channelsLoaded: false, usersLoaded: false };
const userName = (id: number) => users.find((u) => u.user_id === id)?.full_name;

/** The view a fragment opens (throws when it opens none). */
function targetOf(hash: string, l: Lookups = lookups): NarrowTarget {
  const route = parseHash(hash);
  if (route.kind !== 'narrow') throw new Error(`${hash}: ${route.kind}`);
  const r = targetOfTerms(route.terms, l);
  if (r.kind !== 'target') throw new Error(`${hash}: ${r.kind} ${r.what}`);
  return r.target;
}

describe("Zulip's hash component encoding", () => {
  it('writes % as . and escapes . ( ) so browsers leave the fragment alone', () => {
    expect(encodeHashComponent('a b')).toBe('a.20b');
    expect(encodeHashComponent('v1.2 (beta)')).toBe('v1.2E2.20.28beta.29');
    expect(encodeHashComponent('100%')).toBe('100.25');
    expect(encodeHashComponent('https://www.zulipexample.com')).toBe('https.3A.2F.2Fwww.2Ezulipexample.2Ecom');
    expect(encodeHashComponent('café ☕')).toBe('caf.C3.A9.20.E2.98.95');
    expect(decodeHashComponent('https.3A.2F.2Fwww.2Ezulipexample.2Ecom')).toBe('https://www.zulipexample.com');
  });

  it('round-trips any text, including what looks like an escape', () => {
    for (const s of ['', 'plain', 'a.b', '..', '.2E', '%2E', 'a/b/c', 'x#y?z&w', 'tab\there', 'ünïcödé', '日本語のトピック', '🚀 launch', 'a+b=c', "it's (really) fine!", '✔ resolved']) {
      expect(decodeHashComponent(encodeHashComponent(s))).toBe(s);
      expect(encodeHashComponent(s)).not.toMatch(/[%/ ]/);
    }
  });

  it('canonicalises operator synonyms', () => {
    expect(canonicalOperator('stream')).toBe('channel');
    expect(canonicalOperator('Subject')).toBe('topic');
    expect(canonicalOperator('pm-with')).toBe('dm');
    expect(canonicalOperator('is')).toBe('is');
  });
});

describe('parsing fragments', () => {
  it('reads channel and topic links as Zulip builds them, the legacy stream alias too', () => {
    expect(targetOf('#narrow/channel/5-core-team/topic/lunch.20plans')).toEqual({ kind: 'topic', channelId: 5, channelName: 'core team', topic: 'lunch plans' });
    expect(targetOf('#narrow/stream/5-core-team/subject/lunch.20plans')).toEqual({ kind: 'topic', channelId: 5, channelName: 'core team', topic: 'lunch plans' });
    expect(targetOf('narrow/channel/1-general')).toEqual({ kind: 'channel', channelId: 1, channelName: 'general' });
    // Only the id counts; a stale name in the slug does not matter.
    expect(targetOf('#narrow/channel/1-old-name')).toMatchObject({ kind: 'channel', channelId: 1 });
    expect(targetOf('#narrow/channel/1')).toMatchObject({ kind: 'channel', channelId: 1 });
  });

  it('reads the empty topic, near and with anchors, DMs, starred, mentions, search and the feed', () => {
    expect(targetOf('#narrow/channel/1-general/topic/')).toMatchObject({ kind: 'topic', topic: '' });
    expect(targetOf('#narrow/channel/1-general/topic/lunch/near/42')).toMatchObject({ kind: 'topic', topic: 'lunch', near: 42 });
    expect(targetOf('#narrow/channel/1-general/topic/lunch/with/42')).toMatchObject({ kind: 'topic', near: 42 });
    expect(targetOf('#narrow/dm/8-King-Hamlet')).toEqual({ kind: 'dm', userIds: [8] });
    expect(targetOf('#narrow/dm/9,8-group')).toEqual({ kind: 'dm', userIds: [8, 9] });
    expect(targetOf('#narrow/pm-with/9,8-group')).toEqual({ kind: 'dm', userIds: [8, 9] });
    expect(targetOf('#narrow/is/starred')).toEqual({ kind: 'starred' });
    expect(targetOf('#narrow/is/mentioned')).toEqual({ kind: 'mentioned' });
    expect(targetOf('#narrow/search/release.20notes')).toEqual({ kind: 'search', query: 'release notes' });
    expect(targetOf('#narrow/near/77')).toEqual({ kind: 'feed', near: 77 });
    expect(targetOf('#feed')).toEqual({ kind: 'feed' });
    expect(targetOf('#all_messages')).toEqual({ kind: 'feed' });
  });

  it('reads the views that are not message lists, and no fragment at all', () => {
    expect(parseHash('')).toEqual({ kind: 'home' });
    expect(parseHash('#')).toEqual({ kind: 'home' });
    expect(parseHash('#inbox')).toEqual({ kind: 'inbox' });
    expect(parseHash('#recent')).toEqual({ kind: 'recent' });
    expect(parseHash('#recent_topics')).toEqual({ kind: 'recent' });
    expect(parseHash('#settings/profile')).toEqual({ kind: 'other', section: 'settings', rest: ['profile'] });
    expect(buildHash(parseHash('#channels/all'))).toBe('#channels/all');
  });

  it('resolves legacy names once the channels or people are known', () => {
    expect(targetOf('#narrow/stream/core.20team/topic/x')).toMatchObject({ channelId: 5, channelName: 'core team' });
    expect(targetOf('#narrow/stream/General')).toMatchObject({ channelId: 1, channelName: 'general' });
    expect(targetOf('#narrow/pm-with/iago.40example.2Ecom')).toEqual({ kind: 'dm', userIds: [9] });
    const route = parseHash('#narrow/stream/core.20team');
    expect(route.kind === 'narrow' && targetOfTerms(route.terms, notLoaded).kind).toBe('pending');
    const missing = parseHash('#narrow/stream/nowhere');
    expect(missing.kind === 'narrow' && targetOfTerms(missing.terms, lookups)).toMatchObject({ kind: 'unknown' });
  });

  it('says what it cannot read instead of guessing', () => {
    expect(parseHash('#narrow/channel')).toMatchObject({ kind: 'invalid' });
    expect(parseHash('#narrow/channel//topic/x')).toMatchObject({ kind: 'invalid' });
    expect(parseHash('#narrow/search/100.Z')).toMatchObject({ kind: 'invalid' });
    const unsupported = ['#narrow/color/red', '#narrow/channel/1-general/wat/x', '#narrow/-bogus/1'];
    for (const h of unsupported) {
      const r = parseHash(h);
      expect(r.kind === 'narrow' && targetOfTerms(r.terms, lookups).kind, h).toBe('unsupported');
    }
    const badNear = parseHash('#narrow/near/abc');
    expect(badNear.kind === 'narrow' && targetOfTerms(badNear.terms, lookups).kind).toBe('unknown');
  });

  it('shows any other combination of the engine’s operators as a filter view, operands as the engine takes them', () => {
    const f = targetOf('#narrow/channel/1-general/sender/8-King-Hamlet/-is/resolved/has/link/search/x');
    expect(f).toEqual({
      kind: 'filter',
      terms: [
        { operator: 'channel', operand: '1-general', negated: false, wire: 1 },
        { operator: 'sender', operand: '8-King-Hamlet', negated: false, wire: 8 },
        { operator: 'is', operand: 'resolved', negated: true, wire: 'resolved' },
        { operator: 'has', operand: 'link', negated: false, wire: 'link' },
        { operator: 'search', operand: 'x', negated: false, wire: 'x' },
      ],
    });
    expect(narrowRequest(f).narrow).toEqual([
      { operator: 'channel', operand: 1 },
      { operator: 'sender', operand: 8 },
      { operator: 'is', operand: 'resolved', negated: true },
      { operator: 'has', operand: 'link' },
      { operator: 'search', operand: 'x' },
    ]);
    expect(hashOfTarget(f)).toBe('#narrow/channel/1-general/sender/8-King-Hamlet/-is/resolved/has/link/search/x');
    expect(sameTarget(f, targetOf('#narrow/channel/1-renamed/sender/8/-is/resolved/has/link/search/x'))).toBe(true);
    expect(sameTarget(f, targetOf('#narrow/channel/1-general/sender/8/is/resolved/has/link/search/x'))).toBe(false);
    expect(viewTitle(targetOf('#narrow/is/unread/-channel/5-core-team/sender/iago.40example.2Ecom'), { channelName: () => 'core team', userName, ownUserId: 9 }).text).toBe(
      'Search results for “is:unread -channel:core team sender:Iago”',
    );
    expect(targetOf('#narrow/is/unread/near/12')).toMatchObject({ kind: 'filter', near: 12 });
    // Names resolve as for any view: pending before the lists load, unknown when they name nobody.
    const pending = parseHash('#narrow/sender/iago.40example.2Ecom/is/unread');
    expect(pending.kind === 'narrow' && targetOfTerms(pending.terms, notLoaded).kind).toBe('pending');
    const nobody = parseHash('#narrow/sender/nobody.40example.2Ecom/is/unread');
    expect(nobody.kind === 'narrow' && targetOfTerms(nobody.terms, lookups).kind).toBe('unknown');
  });

  it('reads slugs by their ids', () => {
    expect(channelIdOfSlug('5-core-team')).toBe(5);
    expect(channelIdOfSlug('5')).toBe(5);
    expect(channelIdOfSlug('5team')).toBeNull();
    expect(channelIdOfSlug('core-team')).toBeNull();
    expect(userIdsOfSlug('8,9-group')).toEqual([8, 9]);
    expect(userIdsOfSlug('8')).toEqual([8]);
    expect(userIdsOfSlug('hamlet@example.com')).toBeNull();
    expect(dmSlug([8], 'King "Hamlet"/Dane')).toBe('8-King-Hamlet-Dane');
    expect(dmSlug([8, 9], null)).toBe('8,9-group');
    // A name with dots or non-ASCII letters stays readable (people slugs are not decoded).
    expect(targetOf(hashOfTarget({ kind: 'dm', userIds: [8] }, () => 'J. Élodie'))).toEqual({ kind: 'dm', userIds: [8] });
  });
});

describe('building fragments', () => {
  it('builds what Zulip builds', () => {
    expect(hashOfTarget({ kind: 'topic', channelId: 5, channelName: 'core team', topic: 'lunch plans' })).toBe('#narrow/channel/5-core-team/topic/lunch.20plans');
    expect(hashOfTarget({ kind: 'channel', channelId: 1, channelName: 'general' })).toBe('#narrow/channel/1-general');
    expect(hashOfTarget({ kind: 'dm', userIds: [8] }, userName)).toBe('#narrow/dm/8-King-Hamlet');
    expect(hashOfTarget({ kind: 'dm', userIds: [8, 9] }, userName)).toBe('#narrow/dm/8,9-group');
    expect(hashOfTarget({ kind: 'starred' })).toBe('#narrow/is/starred');
    expect(hashOfTarget({ kind: 'mentioned' })).toBe('#narrow/is/mentioned');
    expect(hashOfTarget({ kind: 'search', query: 'a.b c' })).toBe('#narrow/search/a.2Eb.20c');
    expect(hashOfTarget({ kind: 'feed' })).toBe('#feed');
    expect(hashOfTarget({ kind: 'feed', near: 3 })).toBe('#narrow/near/3');
    expect(hashOfTarget({ kind: 'topic', channelId: 1, channelName: 'general', topic: 'x', near: 42 })).toBe('#narrow/channel/1-general/topic/x/near/42');
    expect(buildHash({ kind: 'inbox' })).toBe('#inbox');
    expect(buildHash({ kind: 'recent' })).toBe('#recent');
  });

  it('round-trips every view, with topics and channel names in any script', () => {
    const topics = ['lunch plans', '', 'v1.2 (beta)', '100% done', 'a/b', 'café ☕', '日本語のトピック', 'Привет, мир', 'emoji 🚀🎉', '✔ resolved', 'dots...', '.20 literal', 'under_score-dash'];
    const names = ['general', 'core team', 'Équipe', 'チーム', 'a.b (c)'];
    const targets: NarrowTarget[] = [
      { kind: 'feed' },
      { kind: 'feed', near: 9 },
      { kind: 'starred' },
      { kind: 'mentioned', near: 4 },
      { kind: 'dm', userIds: [8] },
      { kind: 'dm', userIds: [8, 9], near: 100 },
      ...['x', 'a.b', 'ünï 日本'].map((query): NarrowTarget => ({ kind: 'search', query })),
      ...names.map((channelName, i): NarrowTarget => ({ kind: 'channel', channelId: i + 1, channelName })),
      ...topics.flatMap((topic) => names.map((channelName, i): NarrowTarget => ({ kind: 'topic', channelId: i + 1, channelName, topic }))),
    ];
    for (const t of targets) {
      const hash = hashOfTarget(t, userName);
      const back = targetOf(hash);
      expect(sameTarget(back, t), `${hash}`).toBe(true);
      // Built fragments survive a browser writing them into location.hash untouched.
      expect(hash).not.toMatch(/[% ]/);
    }
  });

  it('writes the terms in Zulip order: conversation first, anchor last', () => {
    expect(termsOfTarget({ kind: 'topic', channelId: 1, channelName: 'general', topic: 't', near: 5 }).map((t) => t.operator)).toEqual(['channel', 'topic', 'near']);
  });
});

describe('views to engine requests and titles', () => {
  it('asks the engine for each view', () => {
    expect(narrowRequest({ kind: 'feed' }).narrow).toEqual([{ operator: 'in', operand: 'home' }]);
    expect(narrowRequest({ kind: 'dm', userIds: [8, 9] }).narrow).toEqual([{ operator: 'dm', operand: [8, 9] }]);
    expect(narrowRequest({ kind: 'starred' }).narrow).toEqual([{ operator: 'is', operand: 'starred' }]);
    expect(narrowRequest({ kind: 'search', query: 'q' }).narrow).toEqual([{ operator: 'search', operand: 'q' }]);
    expect(narrowRequest({ kind: 'mentioned', near: 3 })).toMatchObject({ anchor: 3, after: 50 });
  });

  it('titles each view, with the current channel name and people by name', () => {
    const names = { channelName: (id: number) => (id === 1 ? 'general (renamed)' : undefined), userName, ownUserId: 10 };
    expect(viewTitle({ kind: 'topic', channelId: 1, channelName: 'general', topic: '' }, names).text).toBe('general (renamed) › general chat');
    expect(viewTitle({ kind: 'channel', channelId: 7, channelName: 'from the link' }, names).text).toBe('from the link');
    expect(viewTitle({ kind: 'dm', userIds: [8, 9] }, names).text).toBe('Direct messages with King Hamlet and Iago');
    expect(viewTitle({ kind: 'dm', userIds: [10] }, names).text).toBe('Messages with yourself');
    expect(viewTitle({ kind: 'search', query: 'q' }, names).text).toBe('Search results for “q”');
    expect(viewTitle({ kind: 'feed' }, names).text).toBe('Combined feed');
  });
});

describe('what the screen shows', () => {
  it('a view, the default, a loading state, or a placeholder saying what is not built', () => {
    expect(screenOf(parseHash('#narrow/is/starred'), lookups)).toEqual({ kind: 'narrow', target: { kind: 'starred' } });
    expect(screenOf(parseHash(''), lookups)).toEqual({ kind: 'inbox' });
    expect(screenOf(parseHash('#narrow/stream/general'), notLoaded)).toMatchObject({ kind: 'loading' });
    expect(screenOf(parseHash('#inbox'), lookups)).toEqual({ kind: 'inbox' });
    expect(screenOf(parseHash('#recent_topics'), lookups)).toEqual({ kind: 'recent' });
    expect(screenOf(parseHash('#settings/profile'), lookups)).toMatchObject({ kind: 'placeholder', title: 'Personal settings: not built yet' });
    expect(screenOf(parseHash('#whatever'), lookups)).toMatchObject({ kind: 'placeholder', title: '“#whatever” is not built yet' });
    expect(screenOf(parseHash('#narrow/color/red'), lookups)).toMatchObject({ kind: 'placeholder', title: 'This view is not built yet', body: expect.stringContaining('color:red') });
    expect(screenOf(parseHash('#narrow/sender/8'), lookups)).toMatchObject({ kind: 'narrow', target: { kind: 'filter' } });
    expect(screenOf(parseHash('#narrow/channel'), lookups)).toMatchObject({ kind: 'placeholder', title: 'This link could not be read' });
  });

  it('no fragment shows the user’s home view (web_home_view), the inbox while it is not known', () => {
    expect(screenOf(parseHash(''), lookups, 'inbox')).toEqual({ kind: 'inbox' });
    expect(screenOf(parseHash(''), lookups, 'recent_topics')).toEqual({ kind: 'recent' });
    expect(screenOf(parseHash('#'), lookups, 'all_messages')).toEqual({ kind: 'narrow', target: { kind: 'feed' } });
    expect(screenOf(parseHash(''), lookups, undefined)).toEqual({ kind: 'inbox' });
    // A fragment is the place whatever the setting.
    expect(screenOf(parseHash('#inbox'), lookups, 'recent_topics')).toEqual({ kind: 'inbox' });
  });

  it('says in a sentence that an operand its operator never takes is not a valid search, as Zulip web refuses it', () => {
    for (const [hash, said] of [
      ['#narrow/is/foo', '“is:foo” is not something messages can be filtered by: “is:” takes dm, private, starred, unread, mentioned, alerted, followed, muted or resolved. Change the search and try again.'],
      ['#narrow/sender/8/-has/pictures', '“has:pictures” is not something messages can be filtered by: “has:” takes attachment, image, link or reaction. Change the search and try again.'],
    ] as const) {
      expect(screenOf(parseHash(hash), lookups), hash).toEqual({ kind: 'placeholder', title: 'This search is not valid', body: said });
    }
    // Known operands, in any case, still open their views.
    expect(screenOf(parseHash('#narrow/is/Unread'), lookups)).toMatchObject({ kind: 'narrow', target: { kind: 'filter', terms: [{ operator: 'is', wire: 'unread' }] } });
    expect(screenOf(parseHash('#narrow/channels/public'), lookups)).toMatchObject({ kind: 'narrow', target: { kind: 'filter' } });
  });
});

describe('links inside messages', () => {
  const opts = { realmUrl: 'https://chat.example.com', pageUrl: 'http://127.0.0.1:4000/' };

  it("keeps the realm's narrow links in the app", () => {
    expect(internalHash('/#narrow/channel/1-general/topic/x', opts)).toBe('#narrow/channel/1-general/topic/x');
    expect(internalHash('#narrow/is/starred', opts)).toBe('#narrow/is/starred');
    expect(internalHash('https://chat.example.com/#narrow/dm/8-King-Hamlet', opts)).toBe('#narrow/dm/8-King-Hamlet');
    expect(internalHash('https://chat.example.com#inbox', opts)).toBe('#inbox');
    expect(internalHash('http://127.0.0.1:4000/#narrow/near/5', opts)).toBe('#narrow/near/5');
    // A realm under a path.
    expect(internalHash('https://example.org/chat/#narrow/channel/1-x', { ...opts, realmUrl: 'https://example.org/chat' })).toBe('#narrow/channel/1-x');
  });

  it('lets everything else open outside', () => {
    for (const href of ['https://example.com/#narrow/channel/1-x', 'https://chat.example.com/user_uploads/1/a.png', 'https://chat.example.com/help/#narrow', 'https://chat.example.com/?q=1#narrow/x', 'mailto:a@example.com', 'https://chat.example.com/', '#', '/#', '', 'javascript:alert(1)', 'http://chat.example.com/#narrow/x']) {
      expect(internalHash(href, opts), href).toBeNull();
    }
    // A file:// page (Electron) never counts as the same app by origin.
    expect(internalHash('file:///app/index.html#narrow/x', { realmUrl: null, pageUrl: 'file:///app/index.html' })).toBeNull();
  });
});
