/**
 * The marker lines of a merge a person finishes by hand ("Edit a merge"): where both sides changed
 * the same words, the engine writes both versions between these lines, the way git and diff3 do.
 * Shared by the engine that writes them and the page that will not save text still holding them.
 */

export const MARK_YOURS = '<<<<<<< yours';
export const MARK_SPLIT = '=======';
export const MARK_THEIRS = '>>>>>>> theirs';

/** Whether `text` still holds a marker line a merge wrote (the separator alone is a Markdown heading underline). */
export function hasConflictMarkers(text: string): boolean {
  return text.split('\n').some((l) => {
    const line = l.endsWith('\r') ? l.slice(0, -1) : l;
    return line === MARK_YOURS || line === MARK_THEIRS;
  });
}
