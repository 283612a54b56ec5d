/**
 * Pure: a bounded memo of a string function, least recently used evicted first. For work done per
 * message row whose answer depends on the input alone (sanitising a message's HTML): a row that
 * renders again (the view reopened, scrolled back into the window) reuses its answer.
 */
export interface Memo<V> {
  (key: string): V;
  readonly size: number;
}

export function lruMemo<V>(fn: (key: string) => V, capacity: number): Memo<V> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error('lruMemo: capacity must be a whole number of at least 1');
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, V>();
  const memo = (key: string): V => {
    if (entries.has(key)) {
      const v = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, v);
      return v;
    }
    const v = fn(key);
    entries.set(key, v);
    if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    return v;
  };
  Object.defineProperty(memo, 'size', { get: () => entries.size });
  return memo as Memo<V>;
}

/** The `capacity` keys used last; `use` marks one used and answers the keys it pushed out (oldest first). */
export interface RecentKeys<K> {
  use(key: K): K[];
}

/** Pure: which keys were used last, bounded, least recently used pushed out first (the sidebar's kept topic lists). */
export function recentKeys<K>(capacity: number): RecentKeys<K> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error('recentKeys: capacity must be a whole number of at least 1');
  // A Set iterates in insertion order: re-inserting on use keeps the least recently used first.
  const keys = new Set<K>();
  return {
    use(key) {
      keys.delete(key);
      keys.add(key);
      const out: K[] = [];
      for (const k of keys) {
        if (keys.size <= capacity) break;
        keys.delete(k);
        out.push(k);
      }
      return out;
    },
  };
}
