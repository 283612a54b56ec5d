/**
 * One fetch at a time: calls while a fetch runs are folded into ONE more run after it (the answer
 * then reflects every change announced meanwhile), and every caller awaits the same promise.
 */
export function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  let again = false;
  return () => {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };
}
