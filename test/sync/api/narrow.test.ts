import { describe, expect, it } from 'vitest';
import {
  NARROW_OPERATORS,
  encodeLegacyNarrow,
  encodeNarrow,
  narrowTerm,
  negate,
  parseNarrow,
  type NarrowOperator,
  type NarrowTerm,
} from '../../../sync/api/schemas/narrow.js';

/** One valid term per operator (aliases included), in the modern encoding. */
const SAMPLE: Record<NarrowOperator, NarrowTerm> = {
  channel: { operator: 'channel', operand: 5 },
  stream: { operator: 'stream', operand: 'Denmark' },
  channels: { operator: 'channels', operand: 'public' },
  streams: { operator: 'streams', operand: 'web-public' },
  topic: { operator: 'topic', operand: 'castle' },
  sender: { operator: 'sender', operand: 'iago@zulip.com' },
  dm: { operator: 'dm', operand: [1, 2] },
  'pm-with': { operator: 'pm-with', operand: 'a@x.com,b@x.com' },
  pm_with: { operator: 'pm_with', operand: [3] },
  'dm-including': { operator: 'dm-including', operand: 4 },
  'group-pm-with': { operator: 'group-pm-with', operand: 'a@x.com' },
  group_pm_with: { operator: 'group_pm_with', operand: 4 },
  is: { operator: 'is', operand: 'resolved' },
  has: { operator: 'has', operand: 'reaction' },
  in: { operator: 'in', operand: 'home' },
  search: { operator: 'search', operand: 'lunch' },
  near: { operator: 'near', operand: '43' },
  id: { operator: 'id', operand: 43 },
  with: { operator: 'with', operand: 12 },
  mentions: { operator: 'mentions', operand: 8 },
};

describe('narrow builders', () => {
  it('build one term per modern operator', () => {
    expect([
      narrowTerm.channel(5),
      narrowTerm.channels('web-public'),
      narrowTerm.topic(''),
      narrowTerm.sender('iago@zulip.com'),
      narrowTerm.dm([1, 2]),
      narrowTerm.dm(['a@x.com', 'b@x.com']),
      narrowTerm.dmIncluding(4),
      narrowTerm.is('followed'),
      narrowTerm.has('link'),
      narrowTerm.in('all'),
      narrowTerm.search('lunch plans'),
      narrowTerm.near(43),
      narrowTerm.id(43),
      narrowTerm.with(12),
      narrowTerm.mentions(8),
    ]).toEqual([
      { operator: 'channel', operand: 5 },
      { operator: 'channels', operand: 'web-public' },
      { operator: 'topic', operand: '' },
      { operator: 'sender', operand: 'iago@zulip.com' },
      { operator: 'dm', operand: [1, 2] },
      { operator: 'dm', operand: 'a@x.com,b@x.com' },
      { operator: 'dm-including', operand: 4 },
      { operator: 'is', operand: 'followed' },
      { operator: 'has', operand: 'link' },
      { operator: 'in', operand: 'all' },
      { operator: 'search', operand: 'lunch plans' },
      { operator: 'near', operand: '43' },
      { operator: 'id', operand: 43 },
      { operator: 'with', operand: 12 },
      { operator: 'mentions', operand: 8 },
    ]);
  });

  it('negate marks a term negated without changing the original', () => {
    const t = narrowTerm.is('muted');
    expect(negate(t)).toEqual({ operator: 'is', operand: 'muted', negated: true });
    expect(t).toEqual({ operator: 'is', operand: 'muted' });
  });

  it('search rejects an empty operand', () => {
    expect(() => narrowTerm.search('')).toThrow(RangeError);
  });

  it('types operands per operator', () => {
    // @ts-expect-error not an `is` operand
    const a = narrowTerm.is('bogus');
    // @ts-expect-error `has` takes attachment|image|link|reaction
    const b: NarrowTerm = { operator: 'has', operand: 'emoji' };
    // @ts-expect-error topic operands are strings
    const c: NarrowTerm = { operator: 'topic', operand: 5 };
    expect([a, b, c]).toHaveLength(3);
  });
});

describe('encodeNarrow (modern encoding)', () => {
  it('encodes every operator as {operator, operand}, ints and int lists as JSON numbers', () => {
    const terms = NARROW_OPERATORS.map((op) => SAMPLE[op]);
    expect(JSON.stringify(encodeNarrow(terms))).toBe(
      '[' +
        [
          '{"operator":"channel","operand":5}',
          '{"operator":"stream","operand":"Denmark"}',
          '{"operator":"channels","operand":"public"}',
          '{"operator":"streams","operand":"web-public"}',
          '{"operator":"topic","operand":"castle"}',
          '{"operator":"sender","operand":"iago@zulip.com"}',
          '{"operator":"dm","operand":[1,2]}',
          '{"operator":"pm-with","operand":"a@x.com,b@x.com"}',
          '{"operator":"pm_with","operand":[3]}',
          '{"operator":"dm-including","operand":4}',
          '{"operator":"group-pm-with","operand":"a@x.com"}',
          '{"operator":"group_pm_with","operand":4}',
          '{"operator":"is","operand":"resolved"}',
          '{"operator":"has","operand":"reaction"}',
          '{"operator":"in","operand":"home"}',
          '{"operator":"search","operand":"lunch"}',
          '{"operator":"near","operand":"43"}',
          '{"operator":"id","operand":43}',
          '{"operator":"with","operand":12}',
          '{"operator":"mentions","operand":8}',
        ].join(',') +
        ']',
    );
  });

  it('writes negated only when true', () => {
    const terms: NarrowTerm[] = [
      negate(narrowTerm.sender(9)),
      { operator: 'is', operand: 'starred', negated: false },
    ];
    expect(encodeNarrow(terms)).toEqual([
      { operator: 'sender', operand: 9, negated: true },
      { operator: 'is', operand: 'starred' },
    ]);
  });

  it('encodes an empty narrow as []', () => {
    expect(JSON.stringify(encodeNarrow([]))).toBe('[]');
  });
});

describe('encodeLegacyNarrow ([[operator, operand]])', () => {
  it('encodes string operands, and message ids as decimal text', () => {
    expect(
      encodeLegacyNarrow([
        narrowTerm.channel('Denmark'),
        narrowTerm.topic('castle'),
        narrowTerm.dm(['a@x.com', 'b@x.com']),
        narrowTerm.is('dm'),
        narrowTerm.id(43),
        narrowTerm.with(12),
        narrowTerm.near(7),
      ]),
    ).toEqual([
      ['channel', 'Denmark'],
      ['topic', 'castle'],
      ['dm', 'a@x.com,b@x.com'],
      ['is', 'dm'],
      ['id', '43'],
      ['with', '12'],
      ['near', '7'],
    ]);
  });

  it('throws for a negated term', () => {
    expect(() => encodeLegacyNarrow([negate(narrowTerm.is('muted'))])).toThrow(/negat/);
  });

  it('throws for ids that would be read as names or emails', () => {
    expect(() => encodeLegacyNarrow([narrowTerm.channel(5)])).toThrow(/channel.*non-string operand 5/);
    expect(() => encodeLegacyNarrow([narrowTerm.sender(9)])).toThrow(/sender/);
    expect(() => encodeLegacyNarrow([narrowTerm.dm([1, 2])])).toThrow(/\[1,2\]/);
    expect(() => encodeLegacyNarrow([narrowTerm.mentions(8)])).toThrow(/mentions/);
  });
});

describe('parseNarrow', () => {
  it('parses the modern encoding for every operator, round-tripping encodeNarrow', () => {
    const terms = [...NARROW_OPERATORS.map((op) => SAMPLE[op]), negate(narrowTerm.channel(3))];
    expect(parseNarrow(JSON.stringify(encodeNarrow(terms)))).toEqual({ ok: true, terms });
  });

  it('parses the legacy encoding and a mix of both, from text or a decoded value', () => {
    const expected = {
      ok: true,
      terms: [
        { operator: 'stream', operand: 'Denmark' },
        { operator: 'topic', operand: 'castle' },
        { operator: 'sender', operand: 5, negated: true },
      ],
    };
    expect(parseNarrow('[["stream","Denmark"],["topic","castle"],{"operator":"sender","operand":5,"negated":true}]')).toEqual(
      expected,
    );
    expect(
      parseNarrow([['stream', 'Denmark'], ['topic', 'castle'], { operator: 'sender', operand: 5, negated: true }]),
    ).toEqual(expected);
    expect(parseNarrow('[]')).toEqual({ ok: true, terms: [] });
  });

  it('round-trips encodeLegacyNarrow', () => {
    const terms: NarrowTerm[] = [narrowTerm.channel('Denmark'), narrowTerm.is('unread'), narrowTerm.has('image')];
    expect(parseNarrow(encodeLegacyNarrow(terms))).toEqual({ ok: true, terms });
  });

  it.each([
    ['not JSON', '[{', /not valid JSON/],
    ['not an array', '{"operator":"is","operand":"dm"}', /JSON array/],
    ['an unknown operator', '[{"operator":"color","operand":"red"}]', /term 0: unknown operator "color"/],
    ['a missing operator', '[{"operand":"red"}]', /missing string "operator"/],
    ['a bad is operand', '[{"operator":"is","operand":"shiny"}]', /term 0 \(is\): operand/],
    ['an empty search', '[["search",""]]', /search operand must not be empty/],
    ['an int topic', '[{"operator":"topic","operand":3}]', /topic/],
    ['a float id', '[{"operator":"id","operand":1.5}]', /\(id\)/],
    ['a non-boolean negated', '[{"operator":"is","operand":"dm","negated":"yes"}]', /negated/],
    ['a 3-element legacy term', '[["stream","Denmark","x"]]', /exactly two strings/],
    ['a legacy term with an int', '[["id",5]]', /exactly two strings/],
    ['a scalar term', '[5]', /term 0: expected/],
    ['a bad second term', '[["is","dm"],["in","nowhere"]]', /term 1 \(in\)/],
  ])('reports %s as an error', (_label, input, message) => {
    const res = parseNarrow(input);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error).toMatch(message);
  });
});
