/** Pure: the error's own words, whatever was thrown (the error boundary's fallback shows them). */
export function describeFailure(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
