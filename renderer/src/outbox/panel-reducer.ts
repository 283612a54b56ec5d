/**
 * Pure: the outbox panel's rows in words. Every queued change says what it changes ("Star 2
 * messages", "Send to #Verona › lunch": its kind's own description, computed by the engine), where
 * (a link into the app when there is a place to go), its state, attempts, next retry, deadline and typed error; and which actions the
 * row offers (retry a failed or conflicting one; discard one not being sent or checked).
 *
 * Waiting is not an error: a row held back only because the server cannot be reached (its last
 * error is of a network kind) says so in words, with no attempt count and no error colour; the
 * error colour is kept for what a person must act on (failed, conflict).
 */
import type { OutboxLink, OutboxRowView } from '../../../sync/protocol/outbox.js';
import { buildHash, channelSlug, encodeHashComponent } from '../core/hash.js';
import { settingLabel, settingsHref } from '../settings/settings-model.js';
import { REFUSED_FOR_TIME_TEXT, refusedForTime } from '../scheduled/scheduled-list.js';

export type PanelFilter = 'all' | 'pending' | 'failed' | 'conflict';

export interface PanelRow {
  readonly id: number;
  readonly what: string;
  /** An in-app link to the thing it changes, when there is one. */
  readonly href: string | null;
  readonly state: OutboxRowView['state'];
  readonly stateLabel: string;
  readonly tone: 'pending' | 'failed' | 'conflict' | 'done';
  /** Attempts to show (0: none shown, as for a row only waiting for the connection). */
  readonly attempts: number;
  /** The next try to count down to, when the row waits for a time (not for the connection). */
  readonly nextAttemptAt: number | null;
  readonly deadlineAt: number | null;
  /** Why it failed or conflicts, in the error colour: something a person acts on. */
  readonly error: string | null;
  /** What it waits for, in words and the ordinary colour (the connection, the server's asked wait). */
  readonly note: string | null;
  /** Held back only because the server cannot be reached. */
  readonly waitingForNetwork: boolean;
  readonly canRetry: boolean;
  readonly canDiscard: boolean;
  /** What fixes it instead of a retry, where that is done elsewhere (a scheduled message whose time passed). */
  readonly fix: { readonly label: string; readonly href: string } | null;
}

const STATE_LABELS: Record<OutboxRowView['state'], string> = {
  queued: 'Waiting to send',
  sending: 'Sending',
  retry_wait: 'Will retry',
  unknown: 'Checking whether it arrived',
  verifying: 'Checking whether it arrived',
  failed: 'Failed',
  conflict: 'Edited elsewhere meanwhile',
  done: 'Done',
  discarded: 'Discarded',
};

/** Error kinds that mean the request did not get an answer: the server (or the way to it) is away. */
const NETWORK_KINDS = new Set(['network', 'timeout', 'aborted']);

/** States in which a row waits to be sent or checked again (not being sent, not settled). */
const WAITING_STATES = new Set<OutboxRowView['state']>(['queued', 'retry_wait', 'unknown']);

export const WAITING_FOR_CONNECTION = 'Waiting for the connection';

/** A row held back only because the server cannot be reached. */
export function waitsForNetwork(r: Pick<OutboxRowView, 'state' | 'last_error'>): boolean {
  return WAITING_STATES.has(r.state) && r.last_error !== null && NETWORK_KINDS.has(r.last_error.kind);
}

/** What a waiting row says, by why it waits; null when it says nothing beyond its state. */
function noteOf(r: Pick<OutboxRowView, 'state' | 'last_error'>): string | null {
  if (waitsForNetwork(r)) {
    return r.state === 'unknown' ? `${WAITING_FOR_CONNECTION}; will check whether it arrived when the server is back.` : `${WAITING_FOR_CONNECTION}; will send when the server is back.`;
  }
  // The server answered but asked to wait (429, its own 5xx): its words, not an error of the user's.
  if (r.state === 'retry_wait' && r.last_error !== null) return r.last_error.message;
  return null;
}

const toneOf = (s: OutboxRowView['state']): PanelRow['tone'] => (s === 'failed' ? 'failed' : s === 'conflict' ? 'conflict' : s === 'done' || s === 'discarded' ? 'done' : 'pending');

/** Where a row's link goes in the app (the engine names the place; the router spells it). */
export function hrefOf(link: OutboxLink | null): string | null {
  if (link === null) return null;
  switch (link.to) {
    case 'message':
      return buildHash({ kind: 'narrow', terms: [{ operator: 'near', operand: String(link.message_id), negated: false }] });
    case 'channel': {
      const terms = [{ operator: 'channel', operand: channelSlug(link.channel_id, link.name), negated: false }];
      if (link.topic !== undefined) terms.push({ operator: 'topic', operand: link.topic, negated: false });
      return buildHash({ kind: 'narrow', terms });
    }
    case 'group':
      return link.name !== undefined ? `#groups/${link.group_id}/${encodeHashComponent(link.name)}` : `#groups/${link.group_id}`;
    case 'settings':
      return settingsHref(link.settings);
    case 'channels':
      return '#channels/all';
    case 'scheduled':
      return '#scheduled';
  }
}

/** What a row changes, in words (the engine's description; settings get their labels here), and where that is. */
export function describeRow(r: Pick<OutboxRowView, 'description'>): { what: string; href: string | null } {
  const { text, link } = r.description;
  const what = link?.to === 'settings' ? `${text}: ${link.settings.map(settingLabel).join(', ')}` : text;
  return { what, href: hrefOf(link) };
}

export function panelRows(rows: readonly OutboxRowView[], filter: PanelFilter): PanelRow[] {
  return rows
    .map((r): PanelRow => {
      const d = describeRow(r);
      const network = waitsForNetwork(r);
      const settled = r.state === 'failed' || r.state === 'conflict';
      // A retry would be refused again: the fix is a new time or sending it now, on its list.
      const timePassed = refusedForTime([r]);
      return {
        id: r.outbox_id,
        what: d.what,
        href: d.href,
        state: r.state,
        stateLabel: network ? WAITING_FOR_CONNECTION : STATE_LABELS[r.state],
        tone: toneOf(r.state),
        attempts: network ? 0 : r.attempts,
        nextAttemptAt: network || (r.state !== 'retry_wait' && r.state !== 'unknown') ? null : r.next_attempt_at,
        deadlineAt: r.deadline_at,
        // An error only where a person must act; a row being sent again shows none meanwhile.
        error: timePassed ? REFUSED_FOR_TIME_TEXT : settled ? (r.last_error?.message ?? null) : null,
        note: noteOf(r),
        waitingForNetwork: network,
        // As the outbox's state machine allows (sync/outbox/states.ts); a waiting row goes with "Retry all now".
        canRetry: (r.state === 'failed' && !timePassed) || r.state === 'conflict',
        canDiscard: r.state === 'queued' || r.state === 'failed' || r.state === 'conflict' || r.state === 'retry_wait',
        fix: timePassed ? { label: 'Send now or pick a new time', href: hrefOf({ to: 'scheduled' }) ?? '#scheduled' } : null,
      };
    })
    .filter((p) => filter === 'all' || p.tone === filter);
}

/** "in 12 s", "in 3 min", "now" for a time ahead of `now` (UNIX ms). */
export function inWords(at: number, now: number): string {
  const s = Math.ceil((at - now) / 1000);
  if (s <= 0) return 'now';
  if (s < 60) return `in ${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `in ${m} min`;
  return `in ${Math.ceil(m / 60)} h`;
}
