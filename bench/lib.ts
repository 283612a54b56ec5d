/**
 * Benchmark helpers: time a function over warm-up and measured runs, report median / p95 /
 * throughput, and print one table per suite with each row's ratio to a baseline measured in the
 * same run (so figures are comparable across machines).
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

export interface MeasureOptions {
  readonly runs?: number;
  readonly warmup?: number;
  readonly itemsPerRun?: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export async function measure(name: string, fn: () => unknown, opts: MeasureOptions = {}): Promise<Stats> {
  const runs = opts.runs ?? 30;
  for (let i = 0; i < (opts.warmup ?? 3); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { name, runs, medianMs: quantile(times, 0.5), p95Ms: quantile(times, 0.95), minMs: times[0]!, itemsPerRun: opts.itemsPerRun ?? 1 };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Print a table; `baseline` names the row every other row is divided by (median over median). */
export function printTable(title: string, rows: readonly Stats[], baseline?: string, notes: readonly string[] = []): void {
  const base = rows.find((r) => r.name === baseline);
  const header = ['benchmark', 'runs', 'median ms', 'p95 ms', 'items/s (median)', base ? `x ${baseline}` : ''];
  const body = rows.map((r) => [
    r.name,
    String(r.runs),
    fmt(r.medianMs, 3),
    fmt(r.p95Ms, 3),
    fmt((r.itemsPerRun * 1000) / r.medianMs, 0),
    base ? fmt(r.medianMs / base.medianMs, 2) : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  for (const n of notes) console.log(`  ${n}`);
}
