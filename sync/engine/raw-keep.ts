/**
 * Which of the user's own messages keep their raw Markdown on the device, and why an offline Edit
 * is refused: pure functions of the realm's editing settings and the user's role.
 *
 * The server lets the sender edit their message's content while `allow_message_editing` is on and,
 * for members and guests, within `message_content_edit_limit_seconds` of sending it; the time
 * limits do not bind administrators and moderators (common/edit-limits.ts).
 * So the device keeps:
 *
 *   editing turned off              nothing (the server refuses everyone)
 *   bound role, limit > 0           own messages sent within the limit
 *   unbound role, or no limit       every own message the device holds
 *
 * always within RAW_BUDGET, the oldest messages evicted first.
 */
import { boundByTimeLimits } from '../../common/edit-limits.js';

/**
 * What the raw-text table may hold: at most `rows` messages and `bytes` of UTF-8 text, the oldest
 * (lowest message id) evicted first. A chat message's Markdown is typically well under a
 * kilobyte, so 5000 rows is about a megabyte in practice; the byte cap bounds the worst case
 * (5000 messages at a 10 000-character maximum would be ~50 MB otherwise).
 */
export const RAW_BUDGET = { rows: 5000, bytes: 8 * 1024 * 1024 } as const;

export interface EditRules {
  readonly allowEditing: boolean;
  /** null or 0: no time limit. */
  readonly limitSeconds: number | null;
  /** The user's role; anything but a known number (a future role, an unknown user) is treated as bound. */
  readonly role: unknown;
}

/** The limit that binds this user, or null when none does. */
function bindingLimit(r: EditRules): number | null {
  return r.limitSeconds !== null && r.limitSeconds > 0 && boundByTimeLimits(r.role) ? r.limitSeconds : null;
}

export type RawKeep = { readonly keep: false } | { readonly keep: true; readonly sinceSeconds: number };

/** Which own messages to keep the raw text of: none, or those sent at or after `sinceSeconds` (0: all). */
export function rawKeepPolicy(r: EditRules, nowMs: number): RawKeep {
  if (!r.allowEditing) return { keep: false };
  const limit = bindingLimit(r);
  return { keep: true, sinceSeconds: limit === null ? 0 : Math.floor(nowMs / 1000) - limit };
}

function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * Why the server would refuse the user's edit of their own message sent at `sentSeconds`, in
 * words, or undefined when it would accept it.
 */
export function serverWouldRefuse(r: EditRules, sentSeconds: number, nowMs: number): string | undefined {
  if (!r.allowEditing) return 'Your organization has turned off message editing.';
  const limit = bindingLimit(r);
  if (limit !== null && Math.floor(nowMs / 1000) - sentSeconds > limit) {
    return `Your organization allows editing a message only within ${duration(limit)} of sending it, and this one is older.`;
  }
  return undefined;
}
