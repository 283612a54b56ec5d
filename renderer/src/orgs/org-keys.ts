/**
 * Pure: which organisation a key press shows, as zulip-desktop's shortcuts: Ctrl+Tab the next
 * (wrapping), Ctrl+Shift+Tab the previous, Ctrl+1..9 the first to ninth. Null: not ours.
 */
export interface OrgKey {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
}

export function orgForKey(e: OrgKey, ids: readonly string[], shown: string | null): string | null {
  if (!e.ctrlKey || e.altKey || e.metaKey || ids.length === 0) return null;
  if (e.key === 'Tab') {
    const at = shown === null ? -1 : ids.indexOf(shown);
    const n = ids.length;
    return ids[e.shiftKey ? (at <= 0 ? n - 1 : at - 1) : (at + 1) % n] ?? null;
  }
  if (!e.shiftKey && /^[1-9]$/.test(e.key)) return ids[Number(e.key) - 1] ?? null;
  return null;
}

/** The order after moving `id` one place up (-1) or down (+1); unchanged at either end. */
export function moved(ids: readonly string[], id: string, by: -1 | 1): string[] {
  const out = [...ids];
  const i = out.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/**
 * Up to two letters for a tile: the initials of the first two words of the organisation's name, or
 * its first two letters (a "(host)" the engine adds to tell equal names apart is left out).
 */
export function initials(name: string): string {
  const words = name.replace(/\s+\([^()]*\)$/, '').split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  const two = words.length > 1 ? words[0]!.charAt(0) + words[1]!.charAt(0) : (words[0] ?? name).slice(0, 2);
  return two.toUpperCase();
}

/** Each tile's letters, in order: equal initials become the first letter and a number (S1, S2). */
export function tileLetters(names: readonly string[]): string[] {
  const all = names.map(initials);
  const seen = new Map<string, number>();
  return all.map((t) => {
    if (all.filter((x) => x === t).length === 1) return t;
    const n = (seen.get(t) ?? 0) + 1;
    seen.set(t, n);
    return `${t.charAt(0)}${n}`;
  });
}
