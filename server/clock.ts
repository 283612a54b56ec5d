/** Injectable time, so time limits, scheduled delivery and queue expiry are testable without waiting. */
export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

export const seconds = (clock: Clock): number => Math.floor(clock.now() / 1000);
