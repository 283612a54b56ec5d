/**
 * Global times in a message's shown content (Zulip's `<time datetime="…">` from `<time:…>`): each
 * shows the moment in the reader's zone and hour format, the text as written kept in its title, as
 * Zulip web does. Works on the sanitised DOM (text only).
 */
import { formatGlobalTime } from '../kit/format.js';

export function showGlobalTimes(root: HTMLElement, twentyFourHour: boolean | null): void {
  for (const t of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const original = t.dataset['original'] ?? t.textContent ?? '';
    const label = formatGlobalTime(t.dateTime, undefined, undefined, twentyFourHour);
    if (label === null) continue;
    t.dataset['original'] = original;
    t.textContent = label;
    t.title = `This time is in your time zone. Original text was “${original}”.`;
  }
}
