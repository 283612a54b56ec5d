/**
 * Pure: which message the keyboard selects next. `first` / `last` go to the ends; `next` / `prev`
 * step from the selected one, or with none selected start from what is on screen (its first row
 * going down, its last going up).
 */
export type StepCommand = 'next' | 'prev' | 'first' | 'last';

export function stepSelection(ids: readonly number[], selected: number | null, onScreen: () => readonly number[], cmd: StepCommand): number | undefined {
  if (ids.length === 0) return undefined;
  if (cmd === 'first') return ids[0];
  if (cmd === 'last') return ids[ids.length - 1];
  const at = selected === null ? -1 : ids.indexOf(selected);
  if (at < 0) {
    // Nothing selected yet: start from what is on screen.
    const shown = onScreen();
    return cmd === 'next' ? (shown[0] ?? ids[0]) : (shown[shown.length - 1] ?? ids[ids.length - 1]);
  }
  return ids[Math.max(0, Math.min(ids.length - 1, at + (cmd === 'next' ? 1 : -1)))];
}
