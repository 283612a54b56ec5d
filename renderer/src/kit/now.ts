/** The time now, moving on every `everyMs` for as long as the calling component lives (relative times: "5 minutes ago"). */
import { createSignal, onCleanup, type Accessor } from 'solid-js';

export function useNow(everyMs = 30_000): Accessor<Date> {
  const [now, setNow] = createSignal(new Date());
  const tick = window.setInterval(() => setNow(new Date()), everyMs);
  onCleanup(() => window.clearInterval(tick));
  return now;
}
