import { describe, expect, it } from 'vitest';
import { singleFlight } from '../../../renderer/src/core/single-flight.js';

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe('singleFlight', () => {
  it('folds calls made during a run into one more run, and all callers share it', async () => {
    const gates = [gate(), gate(), gate()];
    gates[2]!.open();
    let runs = 0;
    const refresh = singleFlight(async () => {
      await gates[runs++]!.p;
    });
    const a = refresh();
    const b = refresh();
    const c = refresh();
    expect(b).toBe(a);
    expect(c).toBe(a);
    gates[0]!.open();
    gates[1]!.open();
    await a;
    expect(runs).toBe(2);
    await refresh(); // idle again: a fresh run
    expect(runs).toBe(3);
  });

  it('a failing run does not leave it stuck', async () => {
    let n = 0;
    const refresh = singleFlight(async () => {
      n++;
      if (n === 1) throw new Error('boom');
    });
    await expect(refresh()).rejects.toThrow('boom');
    await refresh();
    expect(n).toBe(2);
  });
});
