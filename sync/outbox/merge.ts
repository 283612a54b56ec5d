/**
 * The conflict procedure for content edits (docs/sync-design.md "Conflicts and the three-way merge"): when the
 * server's raw Markdown moved under a queued edit, merge base (what the user started from), ours
 * (what the user wants) and theirs (what the server has now).
 *
 * Exactness is the whole point: the texts are compared and rebuilt as exact strings, never
 * normalised. Line endings (CRLF kept as CRLF), trailing whitespace and a missing final newline all
 * survive a merge, because the tokens we diff keep every character and are joined back verbatim.
 *
 * Lines first (like diff3 and git); where lines conflict, the same region is retried on words so
 * that two people fixing different words of one line still merge. A word is a run of
 * non-whitespace: coarse on purpose. Finer tokens (Unicode word segmentation splits "10:00" into
 * "10", ":", "00") would merge 10:00 -> 11:00 with 10:00 -> 10:30 into an "11:30" neither person
 * wrote. Whitespace never falls inside a surrogate pair or an emoji sequence, so a merge can never
 * leave half a character either.
 */
import { createHash } from 'node:crypto';
import { diff3Merge, type MergeRegion } from 'node-diff3';
import { MARK_SPLIT, MARK_THEIRS, MARK_YOURS } from '../../common/merge-markers.js';

export type MergeResult =
  | { readonly kind: 'clean'; readonly text: string }
  /** All three texts kept untouched, for keep mine / take theirs / edit the merge. */
  | { readonly kind: 'conflict'; readonly base: string; readonly ours: string; readonly theirs: string };

/**
 * SHA-256 (hex) of the UTF-8 bytes of `text`: the `prev_content_sha256` of an edit. Must equal
 * `contentSha256` of sync/api for the same text (tested), but the outbox keeps its own copy so it
 * does not depend on a route module for the hash it stores in rows.
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Lines with their terminators (`\n` or `\r\n`, a lone `\r` stays inside its line). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Words and the whitespace runs between them; joining them gives back `text` exactly. */
export function splitWords(text: string): string[] {
  return text.split(/(\s+)/).filter((t) => t !== '');
}

/**
 * Three-way merge of raw Markdown. Identical changes on both sides are not a conflict; a side that
 * did not change yields the other side exactly (no diffing involved, so nothing can be altered).
 */
export function threeWayMerge(base: string, ours: string, theirs: string): MergeResult {
  if (ours === theirs) return { kind: 'clean', text: ours };
  if (ours === base) return { kind: 'clean', text: theirs };
  if (theirs === base) return { kind: 'clean', text: ours };

  const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), {
    excludeFalseConflicts: true,
  });
  let text = '';
  for (const region of regions) {
    const piece = region.ok ? region.ok.join('') : mergeConflictOnWords(region);
    if (piece === undefined) return { kind: 'conflict', base, ours, theirs };
    text += piece;
  }
  return { kind: 'clean', text };
}

/** The text "Edit a merge" starts from, and how many regions in it are marked for a person to settle. */
export interface EditableMerge {
  readonly text: string;
  readonly conflicts: number;
}

const withNewline = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}\n`);

/**
 * The same merge as `threeWayMerge`, finished for a person: what merges (on lines, then on words)
 * is merged, and each region whose words still collide shows both versions between whole marker
 * lines (common/merge-markers.ts), yours first. A chat message is short: a reader sees the two
 * versions one under the other.
 */
export function mergeForEditing(base: string, ours: string, theirs: string): EditableMerge {
  const clean = threeWayMerge(base, ours, theirs);
  if (clean.kind === 'clean') return { text: clean.text, conflicts: 0 };
  const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true });
  let text = '';
  let conflicts = 0;
  regions.forEach((region, n) => {
    const piece = region.ok ? region.ok.join('') : mergeConflictOnWords(region);
    if (piece !== undefined) {
      text += piece;
      return;
    }
    const c = region.conflict!;
    const [mine, other] = [c.a.join(''), c.b.join('')];
    conflicts++;
    const more = n < regions.length - 1;
    text += `${MARK_YOURS}\n${withNewline(mine)}${MARK_SPLIT}\n${withNewline(other)}${MARK_THEIRS}${more || mine.endsWith('\n') ? '\n' : ''}`;
  });
  return { text, conflicts };
}

/**
 * Retries one line-level conflict on words. The region's bounds sit on lines both sides left
 * alone, so merging it on its own and splicing the result back is sound. Undefined when the
 * words overlap too: then the changes really collide and a person must decide.
 */
function mergeConflictOnWords(region: MergeRegion<string>): string | undefined {
  const c = region.conflict;
  if (!c) return undefined;
  const words = diff3Merge(splitWords(c.a.join('')), splitWords(c.o.join('')), splitWords(c.b.join('')), {
    excludeFalseConflicts: true,
  });
  let out = '';
  for (const w of words) {
    if (!w.ok) return undefined;
    out += w.ok.join('');
  }
  return out;
}
