/**
 * Pure: the text "Edit a merge" starts from, a three-way merge of the text the user's edit started
 * from (base), the user's edit (yours) and the server's current text (theirs).
 *
 * Lines first; a region of lines both sides changed is retried on words (runs of non-whitespace
 * and the whitespace between them), as the engine's own merge does before it gives up, so the
 * clean parts match what it would have sent. What still overlaps is marked with whole lines, the
 * way git and diff3 mark it, because a chat message is short and a reader sees the two versions
 * one under the other:
 *
 *   <<<<<<< yours
 *   We meet at two by the gate.
 *   =======
 *   We meet at one by the gate.
 *   >>>>>>> theirs
 *
 * jsdiff has no diff3, so the merge is written here over its array diff: each side's changes
 * against the base become hunks (a base range and its replacement); hunks of the two sides that
 * overlap or touch form one region, taken from the side that changed it, taken once when both
 * made the same change, and a conflict otherwise.
 */
import { diffArrays } from 'diff';

export const MARK_YOURS = '<<<<<<< yours';
export const MARK_SPLIT = '=======';
export const MARK_THEIRS = '>>>>>>> theirs';

export type MergeRegion = { readonly ok: string } | { readonly yours: string; readonly base: string; readonly theirs: string };

interface Hunk {
  start: number;
  end: number;
  tokens: string[];
  side: 'yours' | 'theirs';
}

/** `text`'s changes against `base` as hunks: base[start, end) became `tokens`. */
function hunks(base: string[], text: string[], side: Hunk['side']): Hunk[] {
  const out: Hunk[] = [];
  let pos = 0;
  let cur: Hunk | undefined;
  for (const c of diffArrays(base, text)) {
    if (!c.added && !c.removed) {
      if (cur) out.push(cur);
      cur = undefined;
      pos += c.value.length;
      continue;
    }
    cur ??= { start: pos, end: pos, tokens: [], side };
    if (c.removed) {
      cur.end += c.value.length;
      pos += c.value.length;
    } else cur.tokens.push(...c.value);
  }
  if (cur) out.push(cur);
  return out;
}

/** base[lo, hi) with one side's hunks (all inside it) applied. */
function apply(base: readonly string[], lo: number, hi: number, side: readonly Hunk[]): string {
  let out = '';
  let at = lo;
  for (const h of side) {
    out += base.slice(at, h.start).join('') + h.tokens.join('');
    at = h.end;
  }
  return out + base.slice(at, hi).join('');
}

/**
 * Three-way merge of token lists (joining a list gives its text back). Regions in order: agreed
 * text, or a conflict with each side's text of the region.
 */
export function merge3(base: string[], yours: string[], theirs: string[]): MergeRegion[] {
  const all = [...hunks(base, yours, 'yours'), ...hunks(base, theirs, 'theirs')].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: MergeRegion[] = [];
  const push = (r: MergeRegion) => {
    const last = out[out.length - 1];
    if ('ok' in r && last && 'ok' in last) out[out.length - 1] = { ok: last.ok + r.ok };
    else if (!('ok' in r) || r.ok !== '') out.push(r);
  };
  let pos = 0;
  let i = 0;
  while (i < all.length) {
    const group = [all[i]!];
    let lo = group[0]!.start;
    let hi = group[0]!.end;
    // Touching counts as overlapping: an insertion right where the other side changed is ambiguous.
    while (i + 1 < all.length && all[i + 1]!.start <= hi) {
      const h = all[++i]!;
      group.push(h);
      lo = Math.min(lo, h.start);
      hi = Math.max(hi, h.end);
    }
    i++;
    push({ ok: base.slice(pos, lo).join('') });
    const mine = group.filter((h) => h.side === 'yours');
    const other = group.filter((h) => h.side === 'theirs');
    const y = apply(base, lo, hi, mine);
    const t = apply(base, lo, hi, other);
    if (mine.length === 0 || other.length === 0 || y === t) push({ ok: mine.length === 0 ? t : y });
    else push({ yours: y, base: base.slice(lo, hi).join(''), theirs: t });
    pos = hi;
  }
  push({ ok: base.slice(pos).join('') });
  return out;
}

/** Lines with their terminators, so joining them gives the text back exactly. */
export function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Words and the whitespace between them, so joining them gives the text back exactly. */
export function words(text: string): string[] {
  return text.match(/\s+|\S+/g) ?? [];
}

/**
 * Above this many base tokens × side tokens a region is not retried on words but marked whole:
 * two long rewrites of one paragraph would keep the diff busy long enough to stall the page, and
 * a person has to read them anyway.
 */
export const MAX_WORD_CELLS = 250_000;

const withNewline = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}\n`);

export interface EditableMerge {
  readonly text: string;
  /** How many regions are marked for the user to settle. */
  readonly conflicts: number;
}

/** The merge the editor starts from: both sides' changes where they do not overlap, marked where they do. */
export function mergeForEditing(base: string, yours: string, theirs: string): EditableMerge {
  const regions = merge3(lines(base), lines(yours), lines(theirs));
  let text = '';
  let conflicts = 0;
  regions.forEach((r, n) => {
    if ('ok' in r) {
      text += r.ok;
      return;
    }
    const [b, y, t] = [words(r.base), words(r.yours), words(r.theirs)];
    const byWords = b.length * Math.max(y.length, t.length) <= MAX_WORD_CELLS ? merge3(b, y, t) : null;
    if (byWords?.every((w) => 'ok' in w)) {
      text += byWords.map((w) => ('ok' in w ? w.ok : '')).join('');
      return;
    }
    conflicts++;
    const more = n < regions.length - 1;
    text += `${MARK_YOURS}\n${withNewline(r.yours)}${MARK_SPLIT}\n${withNewline(r.theirs)}${MARK_THEIRS}${more || r.yours.endsWith('\n') ? '\n' : ''}`;
  });
  return { text, conflicts };
}

/** Whether `text` still holds a marker line this merge wrote (the separator alone is a Markdown heading underline). */
export function hasConflictMarkers(text: string): boolean {
  return lines(text).some((l) => {
    const line = l.replace(/\r?\n$/, '');
    return line === MARK_YOURS || line === MARK_THEIRS;
  });
}
