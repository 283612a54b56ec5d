/**
 * The client (sync/api/topics.ts, and its copy for the contract, sync/protocol/topics.ts) and the
 * reference server (server/model/topic-key.ts) fold topic names the same way: they share no code, so this checks every code point and some strings.
 */
import { describe, expect, it } from 'vitest';
import { topicKey as serverKey } from '../../server/model/topic-key.js';
import { topicKey as clientKey } from '../../sync/api/topics.js';
import { topicKey as contractKey } from '../../sync/protocol/topics.js';

describe('topic keys: client and server agree', () => {
  it('on every Unicode code point', () => {
    const disagree: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (serverKey(ch) !== clientKey(ch) || contractKey(ch) !== clientKey(ch)) disagree.push(cp.toString(16));
    }
    expect(disagree).toEqual([]);
  });

  it('on mixed strings', () => {
    for (const s of ['Äpfel', 'ΟΔΟΣ οδος', 'Straße', 'İstanbul', '✔ résolu', 'plain ascii', '𐐀𐐨 Deseret', 'e\u0301']) {
      expect(clientKey(s)).toBe(serverKey(s));
      expect(contractKey(s)).toBe(serverKey(s));
    }
  });
});
