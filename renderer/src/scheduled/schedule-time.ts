/**
 * Pure: the times of scheduled messages. Delivery times are UNIX seconds; the user sees and picks
 * them in their own time zone (the `timezone` setting, else the device's) and hour format. The
 * picker is a native `datetime-local` input, whose value ("2026-11-25T14:30") is a wall-clock time
 * in that zone: `wallTimeToUnix` and `unixToWallTime` convert both ways.
 */
import { dateText, formatter, hourOptions } from '../kit/format.js';

/** A usable IANA zone name from the user's `timezone` setting ('' or unknown: the device's). */
export function userTimeZone(setting: unknown): string | undefined {
  if (typeof setting !== 'string' || setting === '') return undefined;
  // A known zone's formatter is kept (kit/format.ts): asked per row, each minute, it is built once.
  try {
    formatter('en-US', { timeZone: setting });
    return setting;
  } catch {
    return undefined;
  }
}

/** Offset of `timeZone` from UTC at `ms`, in minutes (device's zone when undefined). */
function offsetMinutes(ms: number, timeZone: string | undefined): number {
  const parts = formatter('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A `datetime-local` value read in `timeZone` → UNIX seconds; null when it is not a valid time. */
export function wallTimeToUnix(value: string, timeZone?: string): number | null {
  const m = WALL.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(asUtc).getUTCDate() !== d) return null; // 31 February and the like
  // The zone's offset near that time, then once more at the corrected instant (DST edges).
  let ms = asUtc - offsetMinutes(asUtc, timeZone) * 60_000;
  ms = asUtc - offsetMinutes(ms, timeZone) * 60_000;
  return Math.floor(ms / 1000);
}

/** UNIX seconds → a `datetime-local` value ("YYYY-MM-DDTHH:MM") in `timeZone`. */
export function unixToWallTime(seconds: number, timeZone?: string): string {
  const wall = new Date(seconds * 1000 + offsetMinutes(seconds * 1000, timeZone) * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
}

/** Scheduling needs a time this far ahead at least (seconds), so it does not go out at once. */
export const MIN_LEAD_SECONDS = 60;

/**
 * Why a picked delivery time cannot be used (a sentence), or null when it can. `failedAt`: the
 * message failed to go at that time, and the spec wants a new one to edit it (PATCH
 * /scheduled_messages requires `scheduled_delivery_timestamp` then).
 */
export function deliveryProblem(seconds: number | null, nowSeconds: number, failedAt?: number): string | null {
  if (seconds === null) return 'Pick a date and a time.';
  if (failedAt !== undefined && seconds === failedAt) return 'This message could not be sent at that time: pick a new one.';
  if (seconds < nowSeconds + MIN_LEAD_SECONDS) return 'Pick a time at least a minute from now.';
  return null;
}

/** A delivery time for the list: weekday, date and time in the user's zone and hour format. */
export function formatDelivery(seconds: number, timeZone?: string, twentyFourHour: boolean | null = null, locale?: string): string {
  return dateText(new Date(seconds * 1000), locale, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', ...hourOptions(twentyFourHour), timeZone });
}

/** Quick picks as Zulip web offers them: in an hour, tomorrow at 9:00 and at 16:00 (user's zone). */
export function quickPicks(nowSeconds: number, timeZone?: string): { label: string; seconds: number }[] {
  const today = unixToWallTime(nowSeconds, timeZone).slice(0, 10);
  const tomorrowNoon = (wallTimeToUnix(`${today}T12:00`, timeZone) ?? nowSeconds) + 86_400;
  const tomorrow = unixToWallTime(tomorrowNoon, timeZone).slice(0, 10);
  const inHour = Math.ceil((nowSeconds + 3600) / 60) * 60;
  return [
    { label: 'In one hour', seconds: inHour },
    { label: 'Tomorrow at 9:00', seconds: wallTimeToUnix(`${tomorrow}T09:00`, timeZone) ?? inHour },
    { label: 'Tomorrow at 16:00', seconds: wallTimeToUnix(`${tomorrow}T16:00`, timeZone) ?? inHour },
  ];
}
