/** The shared seeded PRNG: the same seed gives the same sequence, values lie in [0, 1), seeds differ. */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../common/random.js';

describe('seededRandom', () => {
  it('repeats a sequence for a seed and differs between seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 100 }, () => c())).not.toEqual(xs);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});
