/**
 * The edit history's word diff (sync/engine/edit-history.ts: jsdiff's Myers diff over words)
 * against the hand-written longest-common-subsequence table it replaced, kept here as the
 * same-run baseline: a short message with one word changed, a long one with a few edits, and the
 * worst case under the cap (two unrelated texts of 2,000 words). Target: the library no slower
 * than the table on real edits (at most 1x), and reported for the worst case.
 */
import { MAX_DIFF_WORDS, wordDiff, type DiffPart } from '../sync/engine/edit-history.js';
import { check, interleave, printChecks, type Check } from './lib.js';

const SUITE = 'word-diff';

/** The former implementation: an (n+1)·(m+1) LCS table, then a walk preferring removals. */
function lcsWordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  const out: DiffPart[] = [];
  const push = (op: DiffPart['op'], word: string) => {
    const last = out.at(-1);
    if (last && last.op === op) out[out.length - 1] = { op, text: `${last.text} ${word}` };
    else out.push({ op, text: word });
  };
  if (a.length > MAX_DIFF_WORDS || b.length > MAX_DIFF_WORDS) {
    if (a.length) push('removed', a.join(' '));
    if (b.length) push('added', b.join(' '));
    return out;
  }
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return out;
}

/** Deterministic prose-like text: `n` words from a small vocabulary. */
function text(n: number, seed: number): string[] {
  const vocab = ['the', 'meeting', 'is', 'at', 'noon', 'in', 'room', 'four', 'please', 'bring', 'your', 'notes', 'and', 'a', 'laptop', 'we', 'will', 'review', 'release', 'plan'];
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return vocab[s % vocab.length]!;
  });
}

function edited(words: readonly string[], edits: number): string[] {
  const out = [...words];
  for (let k = 1; k <= edits; k++) out.splice(Math.floor((out.length * k) / (edits + 1)), 1, `changed${k}`);
  return out;
}

export async function benchWordDiff(): Promise<void> {
  const short = text(40, 1);
  const long = text(400, 2);
  const cases: Array<[string, string, string, number, 'report' | { max: number }]> = [
    ['40 words, one replaced', short.join(' '), edited(short, 1).join(' '), 400, { max: 1 }],
    ['400 words, five replaced', long.join(' '), edited(long, 5).join(' '), 40, { max: 1 }],
    [`${MAX_DIFF_WORDS} words against ${MAX_DIFF_WORDS} unrelated (the worst case under the cap)`, text(MAX_DIFF_WORDS, 3).join(' '), text(MAX_DIFF_WORDS, 4).join(' '), 1, 'report'],
  ];
  const checks: Check[] = [];
  for (const [name, before, after, reps, goal] of cases) {
    const loop = (f: typeof wordDiff) => () => {
      for (let r = 0; r < reps; r++) f(before, after);
    };
    const [base, ours] = await interleave(
      [
        { name: `LCS table: ${name}`, fn: loop(lcsWordDiff), itemsPerRun: reps },
        { name: `jsdiff: ${name}`, fn: loop(wordDiff), itemsPerRun: reps },
      ],
      { runs: reps === 1 ? 9 : 25, warmup: 2 },
    );
    checks.push(check(SUITE, ours!, base!, goal, { name: `word diff, ${name}${reps > 1 ? ` (x${reps})` : ''}` }));
  }
  printChecks('Edit history word diff: jsdiff vs the former LCS table', checks);
}
