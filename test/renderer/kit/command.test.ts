/** useCommand: busy while running, the error as a sentence, the result of the last success. */
import { describe, expect, it } from 'vitest';
import { createRoot } from 'solid-js';
import { useCommand } from '../../../renderer/src/kit/command.js';

const deferred = <T,>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('useCommand', () => {
  it('is busy while the command runs and keeps its result', async () => {
    await createRoot(async (dispose) => {
      const d = deferred<number>();
      const cmd = useCommand((n: number) => d.promise.then((v) => v + n));
      expect(cmd.busy()).toBe(false);
      const done = cmd.run(1);
      expect(cmd.busy()).toBe(true);
      d.resolve(41);
      expect(await done).toBe(true);
      expect(cmd.busy()).toBe(false);
      expect(cmd.result()).toBe(42);
      expect(cmd.error()).toBeNull();
      dispose();
    });
  });

  it('turns a failure into a sentence, and a new run clears it', async () => {
    await createRoot(async (dispose) => {
      let fail = true;
      const cmd = useCommand(async () => {
        if (fail) throw new Error('no connection');
        return 'ok';
      });
      expect(await cmd.run()).toBe(false);
      expect(cmd.error()).toBe('no connection');
      expect(cmd.busy()).toBe(false);
      fail = false;
      expect(await cmd.run()).toBe(true);
      expect(cmd.error()).toBeNull();
      dispose();
    });
  });

  it('describes errors its own way when asked, and shows the screen’s own refusals', async () => {
    await createRoot(async (dispose) => {
      const cmd = useCommand(() => Promise.reject(new Error('x')), { describe: () => 'Cannot save now.' });
      await cmd.run();
      expect(cmd.error()).toBe('Cannot save now.');
      cmd.fail('Add at least one person.');
      expect(cmd.error()).toBe('Add at least one person.');
      dispose();
    });
  });
});
