/**
 * A command's busy / error / result, written once: `useCommand(run)` gives `busy()` while it runs,
 * `error()` as a sentence after a failure (null after a success or a new start), `result()` of the
 * last run if it succeeded, and `run(...)`, which resolves true when the command succeeded (never
 * rejects). `fail(text)` shows a refusal the screen makes itself (a field left empty) in the same
 * place, as the outcome of this attempt (no result).
 */
import { batch, createSignal } from 'solid-js';
import { errorText } from '../core/errors.js';

export interface Command<A extends unknown[], R> {
  busy(): boolean;
  error(): string | null;
  result(): R | undefined;
  run(...args: A): Promise<boolean>;
  fail(text: string | null): void;
}

export interface CommandOptions {
  /** The error as a sentence (default: `errorText`). */
  describe?(e: unknown): string;
}

export function useCommand<A extends unknown[], R>(fn: (...args: A) => Promise<R>, opts: CommandOptions = {}): Command<A, R> {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [result, setResult] = createSignal<R | undefined>(undefined);
  const describe = opts.describe ?? errorText;
  return {
    busy,
    error,
    result,
    fail: (text) =>
      batch(() => {
        setError(text);
        if (text !== null) setResult(undefined);
      }),
    async run(...args) {
      batch(() => {
        setBusy(true);
        setError(null);
        setResult(undefined);
      });
      try {
        const r = await fn(...args);
        batch(() => {
          setResult(() => r);
          setBusy(false);
        });
        return true;
      } catch (e) {
        batch(() => {
          setError(describe(e));
          setBusy(false);
        });
        return false;
      }
    },
  };
}
