/**
 * Passing a request's fields on to an API call that names them the same way: only the ones the
 * page set, so a field left out stays out of the call (and off the wire).
 */
export function setFields<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}
