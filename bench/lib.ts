/**
 * Benchmark helpers: time a function over warm-up and measured runs (median / p95), run several
 * variants in turns so machine load falls on all alike, and record one CHECK per benchmark: its
 * median (and p95), the median of a baseline measured in the same run, their ratio, the target
 * stated as a ratio, and whether it is met. Absolute figures swing severalfold between runs on a
 * busy machine; only the ratios decide. Every suite prints its checks; `printSummary` prints them
 * all at the end of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';

export interface Stats {
  readonly name: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly minMs: number;
  /** Items processed per run (messages, requests, ...), for throughput. */
  readonly itemsPerRun: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/** Stats from measured durations (ms). */
export function statsOf(name: string, times: readonly number[], itemsPerRun = 1): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  return { name, runs: sorted.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), minMs: sorted[0] ?? Number.NaN, itemsPerRun };
}

export interface Variant {
  readonly name: string;
  /** The timed work of one run. */
  readonly fn: () => unknown;
  /** Untimed preparation before each run (fresh state, the next batch, ...). */
  readonly setup?: () => unknown;
  readonly itemsPerRun?: number;
}

/** Indexes 0..n-1 starting at `round` mod n: each round starts with the next variant. */
export function rotation(n: number, round: number): number[] {
  return Array.from({ length: n }, (_, k) => (round + k) % n);
}

/**
 * Every variant, run in turns (a, b, c, then b, c, a, ...): load from elsewhere on the machine
 * falls on each alike, and no variant always follows the same one (whose after-effects, such as
 * the OS writing back a file, it would otherwise always pay), so the ratios between them stay
 * meaningful. Warm-up turns are not counted.
 */
export async function interleave(variants: readonly Variant[], opts: { runs: number; warmup?: number }): Promise<Stats[]> {
  const times = variants.map((): number[] => []);
  const warmup = opts.warmup ?? 2;
  for (let r = 0; r < warmup + opts.runs; r++) {
    for (const i of rotation(variants.length, r)) {
      const v = variants[i]!;
      await v.setup?.();
      const t0 = performance.now();
      await v.fn();
      const dt = performance.now() - t0;
      if (r >= warmup) times[i]!.push(dt);
    }
  }
  return variants.map((v, i) => statsOf(v.name, times[i]!, v.itemsPerRun ?? 1));
}

/**
 * What a check asks of its ratio (or of the p95). `max`: measured / baseline at most this;
 * `min`: baseline / measured at least this (a speed-up over the baseline); `p95Max`: the measured
 * p95 under this many ms (the one kind of absolute target the issues state; `p95AtMost`: at most,
 * give or take `jitterMs`, for figures such as frame intervals, which come in whole frames of
 * 16.7 ms with a timer's jitter: 16.8 is one frame, 33.3 a missed one); `medianAtMost` with
 * `p95AtMost`: both the median and the p95 at most these (a frame budget); `report`: figures
 * reported with no target.
 */
export type Goal = { readonly max: number } | { readonly min: number } | { readonly p95Max: number } | { readonly p95AtMost: number; readonly jitterMs: number } | { readonly medianAtMost: number; readonly p95AtMost: number } | 'report';

export interface Check {
  readonly suite: string;
  readonly name: string;
  /** Measured and baseline values, formatted with their unit. */
  readonly median: string;
  readonly p95: string;
  readonly baseline: string;
  readonly baselineMedian: string;
  /** The ratio the goal reads (speed-up for `min`), formatted. */
  readonly ratio: string;
  readonly target: string;
  /** null: reported only. */
  readonly met: boolean | null;
}

const checks: Check[] = [];

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const ms = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3)) : '-');

/** Record a timed check: `measured` against `baseline`, both from this run. */
export function check(suite: string, measured: Stats, baseline: Stats, goal: Goal, opts: { name?: string; baselineName?: string } = {}): Check {
  const ratio = measured.medianMs / baseline.medianMs;
  let ratioText = `${fmt(ratio)}x`;
  let target = 'reported';
  let met: boolean | null = null;
  if (goal !== 'report' && 'max' in goal) {
    target = `ratio <= ${goal.max}x`;
    met = ratio <= goal.max;
  } else if (goal !== 'report' && 'min' in goal) {
    ratioText = `${fmt(1 / ratio, 1)}x faster`;
    target = `>= ${goal.min}x faster`;
    met = 1 / ratio >= goal.min;
  } else if (goal !== 'report' && 'medianAtMost' in goal) {
    target = `median <= ${goal.medianAtMost} ms, p95 <= ${goal.p95AtMost} ms`;
    met = measured.medianMs <= goal.medianAtMost && measured.p95Ms <= goal.p95AtMost;
  } else if (goal !== 'report' && 'p95AtMost' in goal) {
    target = `p95 <= ${goal.p95AtMost} ms (±${goal.jitterMs})`;
    met = measured.p95Ms <= goal.p95AtMost + goal.jitterMs;
  } else if (goal !== 'report') {
    target = `p95 < ${goal.p95Max} ms`;
    met = measured.p95Ms < goal.p95Max;
  }
  const c: Check = {
    suite,
    name: opts.name ?? measured.name,
    median: `${ms(measured.medianMs)} ms`,
    p95: `${ms(measured.p95Ms)} ms`,
    baseline: opts.baselineName ?? baseline.name,
    baselineMedian: `${ms(baseline.medianMs)} ms`,
    ratio: ratioText,
    target,
    met,
  };
  checks.push(c);
  return c;
}

/**
 * Record a check on a quantity that is not a time (a file size, ...): `value` against `base`.
 * `below`: an absolute limit the issue states (e.g. DOM nodes), `text` its formatted value.
 */
export function checkValue(suite: string, name: string, value: { n: number; text: string }, base: { name: string; n: number; text: string }, goal: { max: number } | { below: number; text: string } | 'report'): Check {
  const ratio = value.n / base.n;
  const met = goal === 'report' ? null : 'max' in goal ? ratio <= goal.max : value.n < goal.below;
  const c: Check = {
    suite,
    name,
    median: value.text,
    p95: '',
    baseline: base.name,
    baselineMedian: base.text,
    ratio: `${fmt(ratio)}x`,
    target: goal === 'report' ? 'reported' : 'max' in goal ? `ratio <= ${goal.max}x` : `< ${goal.text}`,
    met,
  };
  checks.push(c);
  return c;
}

const verdict = (c: Check) => (c.met === null ? 'reported' : c.met ? 'met' : 'NOT MET');

function table(header: readonly string[], body: readonly (readonly string[])[], rightFrom = 1): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i < rightFrom ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
}

const CHECK_HEADER = ['median', 'p95', 'baseline (same run)', 'baseline median', 'ratio', 'target', 'result'];
const checkCells = (c: Check) => [c.median, c.p95, c.baseline, c.baselineMedian, c.ratio, c.target, verdict(c)];

/** Print a suite's checks, with notes below. */
export function printChecks(title: string, suiteChecks: readonly Check[], notes: readonly string[] = []): void {
  console.log(`\n## ${title}\n`);
  table(['benchmark', ...CHECK_HEADER], suiteChecks.map((c) => [c.name, ...checkCells(c)]));
  for (const n of notes) console.log(`  ${n}`);
}

/** Every check of this run in one table, and the count met / not met. */
export function printSummary(): void {
  console.log('\n## Summary: every check of this run\n');
  table(['suite', 'benchmark', ...CHECK_HEADER], checks.map((c) => [c.suite, c.name, ...checkCells(c)]), 2);
  const met = checks.filter((c) => c.met === true).length;
  const notMet = checks.filter((c) => c.met === false);
  const reported = checks.filter((c) => c.met === null).length;
  console.log(`\n${met} met, ${notMet.length} not met, ${reported} reported without a target.`);
  for (const c of notMet) console.log(`  NOT MET: ${c.suite} / ${c.name}: ${c.ratio} (target ${c.target})`);
}

/** RSS and JS heap (bytes) after a full GC, in a child process run with `--expose-gc`. */
export function memorySample(): { rss: number; heap: number } {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with --expose-gc');
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}
