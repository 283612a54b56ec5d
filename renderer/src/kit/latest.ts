/**
 * Pure: a value one feature announces to another without importing it. Listeners hear each value
 * as it comes; the latest is kept for one that asks later (mounted after it was announced).
 */
export interface Latest<T> {
  /** Keep `value` as the latest and tell the listeners. */
  announce(value: T): void;
  /** The latest value, or null (none yet, or cleared). */
  latest(): T | null;
  clear(): void;
  /** Hear new values; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
}

export function createLatest<T>(): Latest<T> {
  let latest: T | null = null;
  const listeners = new Set<(value: T) => void>();
  return {
    announce(value) {
      latest = value;
      for (const l of [...listeners]) l(value);
    },
    latest: () => latest,
    clear() {
      latest = null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
