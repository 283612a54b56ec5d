/** Fake timers driven by hand, for the renderer's timing logic: `advance(ms)` runs what is due, in order. */
export function handClock() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; f: () => void }>();
  return {
    now: () => now,
    timers: {
      set: (f: () => void, ms: number) => {
        const id = ++seq;
        due.set(id, { at: now + ms, f });
        return id;
      },
      clear: (h: unknown) => void due.delete(h as number),
      now: () => now,
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        now = next[1].at;
        due.delete(next[0]);
        next[1].f();
      }
      now = end;
    },
    pending: () => due.size,
  };
}
