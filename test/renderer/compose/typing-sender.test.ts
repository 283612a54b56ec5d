/**
 * The typing notices' timing (compose/typing-sender.ts), with fake timers: start on the first
 * keystroke, again only once the started-wait period has passed while typing on, stop after the
 * stopped-wait period idle (composer) or never by itself (editor), stop first when the target
 * changes, stop on demand, the realm's periods taken from the engine's answer; and the line's text.
 */
import { describe, expect, it } from 'vitest';
import { createTypingSender, typingText, type TypingOp, type TypingTiming } from '../../../renderer/src/compose/typing-sender.js';
import { handClock } from '../hand-clock.js';

const clock = handClock;

function setup(idleStop: boolean, answer?: TypingTiming) {
  const c = clock();
  const sent: Array<[string, TypingOp, number]> = [];
  const s = createTypingSender<string>({
    send: (to, op) => {
      sent.push([to, op, c.now()]);
      return Promise.resolve(answer);
    },
    keyOf: (to) => to.toLowerCase(),
    idleStop,
    timers: c.timers,
    now: c.now,
  });
  return { c, sent, s };
}

/** Let the engine's answers (promises) land. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('typing sender', () => {
  it('composer: start once, again every started-wait period while typing, stop after the stopped-wait period idle', () => {
    const { c, sent, s } = setup(true);
    s.typed('lunch');
    expect(sent).toEqual([['lunch', 'start', 0]]);
    // Typing on every 1 s: no new start before 10 s, then one.
    for (let i = 0; i < 12; i++) {
      c.advance(1_000);
      s.typed('Lunch');
    }
    expect(sent).toEqual([
      ['lunch', 'start', 0],
      ['Lunch', 'start', 10_000],
    ]);
    expect(s.current()).toBe('Lunch');
    c.advance(4_999);
    expect(sent).toHaveLength(2);
    c.advance(1);
    expect(sent[2]).toEqual(['Lunch', 'stop', 17_000]);
    expect(s.current()).toBeNull();
    // The next keystroke starts afresh at once.
    s.typed('lunch');
    expect(sent[3]).toEqual(['lunch', 'start', 17_000]);
  });

  it('a new target stops the old one first; null and stop() stop; stopping twice sends one stop', () => {
    const { sent, s } = setup(true);
    s.typed('a');
    s.typed('b');
    expect(sent.map(([t, op]) => `${op} ${t}`)).toEqual(['start a', 'stop a', 'start b']);
    s.typed(null);
    s.stop();
    s.dispose();
    expect(sent.map(([t, op]) => `${op} ${t}`)).toEqual(['start a', 'stop a', 'start b', 'stop b']);
  });

  it('editor: no idle stop, a start every started-wait period while typing, stop on save or cancel', () => {
    const { c, sent, s } = setup(false);
    s.typed('m1');
    c.advance(60_000);
    expect(sent).toEqual([['m1', 'start', 0]]);
    s.typed('m1');
    expect(sent[1]).toEqual(['m1', 'start', 60_000]);
    c.advance(5_000);
    s.typed('m1');
    expect(sent).toHaveLength(2);
    s.stop();
    expect(sent[2]).toEqual(['m1', 'stop', 65_000]);
  });

  it("the realm's periods, from the engine's answer, apply from the next notice", async () => {
    const { c, sent, s } = setup(true, { started_wait_ms: 2_000, stopped_wait_ms: 1_000 });
    s.typed('t');
    await settle();
    c.advance(999);
    s.typed('t');
    c.advance(999);
    expect(sent).toHaveLength(1);
    c.advance(1);
    expect(sent.map(([, op, at]) => `${op}@${at}`)).toEqual(['start@0', 'stop@1999']);
    s.typed('t');
    c.advance(1_000);
    expect(sent.map(([, op, at]) => `${op}@${at}`)).toEqual(['start@0', 'stop@1999', 'start@1999', 'stop@2999']);
  });

  it('the line: one, two, three names, then several', () => {
    expect(typingText([])).toBeNull();
    expect(typingText(['King Hamlet'])).toBe('King Hamlet is typing…');
    expect(typingText(['A', 'B'])).toBe('A and B are typing…');
    expect(typingText(['A', 'B', 'C'])).toBe('A, B and C are typing…');
    expect(typingText(['A', 'B', 'C', 'D'])).toBe('Several people are typing…');
  });
});
