import { describe, expect, it } from 'vitest';
import { encodeParams, pathSegment } from '../../../sync/api/encoding.js';

function decoded(s: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(s));
}

describe('request encoding', () => {
  it('sends strings raw and everything else as JSON', () => {
    const body = encodeParams({
      topic: 'café & "quotes" ✔',
      content: '{"not":"json-encoded again"}',
      flag: true,
      off: false,
      n: 42,
      ids: [1, 2, 3],
      obj: { new: { direct_members: [1], direct_subgroups: [] } },
      nothing: null,
      skipped: undefined,
    });
    expect(decoded(body)).toEqual({
      topic: 'café & "quotes" ✔',
      content: '{"not":"json-encoded again"}',
      flag: 'true',
      off: 'false',
      n: '42',
      ids: '[1,2,3]',
      obj: '{"new":{"direct_members":[1],"direct_subgroups":[]}}',
      nothing: 'null',
    });
    expect(body).not.toContain('skipped');
  });

  it('percent-encodes as application/x-www-form-urlencoded', () => {
    expect(encodeParams({ q: 'a b+c&d=e' })).toBe('q=a+b%2Bc%26d%3De');
  });

  it('keeps slashes inside navigation-view fragments but encodes the rest', () => {
    expect(pathSegment('narrow/is/alerted', { keepSlashes: true })).toBe('narrow/is/alerted');
    expect(pathSegment('narrow/channel/5-a b', { keepSlashes: true })).toBe('narrow/channel/5-a%20b');
    expect(pathSegment('a/b')).toBe('a%2Fb');
  });
});
