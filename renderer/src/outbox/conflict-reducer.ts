/**
 * Pure: what a content conflict shows. Each side's text as a word diff against the base both
 * edits started from (so the reader sees at a glance what each side changed), the conflict of a
 * row looked up by id, and when an edited merge may be saved.
 */
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { hasConflictMarkers } from '../../../common/merge-markers.js';

export type Conflict = NonNullable<OutboxRowView['conflict']>;

export interface Segment {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * Above this many cells (base tokens × text tokens) the diff is not computed: the quadratic table
 * would stall the page on a very long message, and the raw text is shown instead.
 */
export const MAX_DIFF_CELLS = 250_000;

/** Above the number of tokens a comparable text can have (MAX_DIFF_CELLS bounds the shorter side). */
const WORD_WEIGHT = 1024;
const weight = (t: string | undefined) => (t === undefined || /^\s/.test(t) ? 1 : WORD_WEIGHT);

/** Words and the whitespace between them, so joining the tokens gives the text back exactly. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|\S+/g) ?? [];
}

/**
 * `text` against `base`, word by word (longest common subsequence): what `text` kept, added and
 * removed, in reading order (a removal before the addition replacing it), adjacent runs of one
 * kind joined. Null when the texts are too long to compare (see MAX_DIFF_CELLS).
 */
export function wordDiff(base: string, text: string): Segment[] | null {
  const a = tokenize(base);
  const b = tokenize(text);
  if (a.length * b.length > MAX_DIFF_CELLS) return null;
  // lcs[i][j]: weight of the heaviest common subsequence of a[i..] and b[j..]. A word weighs more
  // than all the whitespace a text can hold, so shared spaces never win over a shared word (with
  // plain lengths, "lunch at noon" vs "early lunch" matched two spaces instead of "lunch").
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  const at = (i: number, j: number) => lcs[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + weight(a[i]) : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: Segment[] = [];
  const push = (kind: Segment['kind'], t: string) => {
    const last = out[out.length - 1];
    if (last?.kind === kind) last.text += t;
    else out.push({ kind, text: t });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? '';
    const y = b[j] ?? '';
    if (x === y) {
      push('same', x);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      push('removed', x);
      i++;
    } else {
      push('added', y);
      j++;
    }
  }
  for (const x of a.slice(i)) push('removed', x);
  for (const y of b.slice(j)) push('added', y);
  return out;
}

/** The three texts of the conflicting row `outboxId`, when the outbox list has them. */
export function conflictOf(rows: readonly Pick<OutboxRowView, 'outbox_id' | 'conflict'>[], outboxId: number | null): Conflict | null {
  if (outboxId === null) return null;
  return rows.find((r) => r.outbox_id === outboxId)?.conflict ?? null;
}

/**
 * An edited merge is saved when it says something (an empty message is not an edit) and no longer
 * holds the conflict markers the merge started with (they would land in the message).
 */
export function canSaveMerge(text: string): boolean {
  return text.trim() !== '' && !hasConflictMarkers(text);
}
