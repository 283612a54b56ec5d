/**
 * Pure: what the status indicator shows for the session's status and the host connection. `now`
 * is passed in (the store ticks it) so countdowns are testable without a clock; `pending` (the
 * outbox's pending count, when known) lets the sentence say what waits for the server.
 *
 * Every state has a sentence (`name`, the indicator's accessible name): being offline is said as
 * what it means ("Offline: the server cannot be reached. 3 changes will be sent when it is
 * back."), never as the engine's technical line, which stays in `detail` for the tooltip.
 */
import type { FailureCause, SessionStatus, SyncPhase } from '../../../sync/protocol/status.js';

export type StatusTone = 'live' | 'busy' | 'offline' | 'error';

export interface StatusView {
  tone: StatusTone;
  /** Short text next to the dot. */
  label: string;
  /** A longer explanation (tooltip, error text). */
  detail: string | null;
  /** The whole state as a sentence: the indicator's accessible name. */
  name: string;
  /** Present while syncing: `max` null means the total is not known yet. */
  progress: { value: number; max: number | null } | null;
}

const PHASES: Record<SyncPhase, string> = {
  register: 'Registering',
  history: 'Fetching history',
  gap: 'Catching up',
  refresh: 'Refreshing messages',
  outbox: 'Sending changes',
};

/** The phases in a sentence: what is being fetched and how far along. */
const PHASE_SENTENCES: Record<SyncPhase, string> = {
  register: 'Syncing: registering with the server',
  history: 'Syncing: fetching message history',
  gap: 'Syncing: catching up on what happened while away',
  refresh: 'Syncing: refreshing cached messages',
  outbox: 'Sending your changes to the server',
};

/** Why the stream is down, in words (the kind of the last failure; older engines do not say). */
function offlineReason(cause: FailureCause | undefined): string {
  switch (cause) {
    case 'timeout':
      return 'Offline: the server is not answering.';
    case 'server':
      return 'Offline: the server has a problem.';
    case 'rate_limited':
      return 'Offline: the server asked to wait.';
    default:
      return 'Offline: the server cannot be reached.';
  }
}

/** " 3 changes will be sent when …", or nothing when nothing waits. */
function waiting(pending: number | null, when: string): string {
  if (pending === null || pending <= 0) return '';
  return pending === 1 ? ` 1 change will be sent when ${when}.` : ` ${pending} changes will be sent when ${when}.`;
}

/** "in 12 s", "in 3 min", "now". */
export function retryIn(nextRetryAt: number, now: number): string {
  const s = Math.ceil((nextRetryAt - now) / 1000);
  if (s <= 0) return 'now';
  if (s < 90) return `in ${s} s`;
  return `in ${Math.round(s / 60)} min`;
}

/** The error, and when the server asked to wait longer than the engine does, that too. */
function retryDetail(status: { error: string; serverAskedRetryAfterMs?: number | undefined }): string {
  const asked = status.serverAskedRetryAfterMs;
  if (asked === undefined) return status.error;
  const s = Math.ceil(asked / 1000);
  const human = s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} days`;
  return `${status.error} (the server asked to wait ${human}; retrying sooner)`;
}

/** The app host started again with a new sign-in: what the tab says (the notice offers the way back). */
export const HOST_REFUSED_TEXT = 'The app was started again with a new sign-in, so this tab cannot reach it any more. Open the sign-in link it printed.';

/** `host`: the app host is reachable (true), away (false), or refuses this tab (`refused`). */
export function describeStatus(status: SessionStatus | null, host: boolean | 'refused', now: number, pending: number | null = null): StatusView {
  if (host === 'refused') return { tone: 'offline', label: 'Not signed in to the app', detail: HOST_REFUSED_TEXT, name: `Not signed in to the app: ${HOST_REFUSED_TEXT}`, progress: null };
  if (!host) {
    const detail = 'The connection to the app host was lost. This tab reconnects by itself when the app answers here again; if it was started at another address, open the link it printed.';
    return { tone: 'offline', label: 'Reconnecting to the app…', detail, name: `Reconnecting to the app: ${detail[0]?.toLowerCase() ?? ''}${detail.slice(1)}`, progress: null };
  }
  if (status === null) return { tone: 'busy', label: 'Starting…', detail: null, name: 'Starting.', progress: null };
  switch (status.state) {
    case 'live':
      return { tone: 'live', label: 'Live', detail: 'Connected; updates arrive as they happen.', name: 'Live: connected; updates arrive as they happen.', progress: null };
    case 'connecting':
      return { tone: 'busy', label: 'Connecting…', detail: null, name: `Connecting to the server.${waiting(pending, 'it answers')}`, progress: null };
    case 'stopped':
      return { tone: 'offline', label: 'Stopped', detail: 'Syncing is paused.', name: `Stopped: syncing is paused.${waiting(pending, 'syncing resumes')}`, progress: null };
    case 'syncing': {
      const p = status.progress;
      const count = p.total === null ? `${p.done}` : `${p.done} / ${p.total}`;
      const progress = { value: p.done, max: p.total };
      if (p.phase === 'outbox') {
        const sent = p.total === null ? `${p.done} sent so far` : `${p.done} of ${p.total} sent`;
        return { tone: 'busy', label: `Sending changes ${count}`, detail: null, name: `${PHASE_SENTENCES.outbox}: ${sent}.`, progress };
      }
      const far = p.phase === 'register' ? '' : p.total === null ? `, ${p.done} so far` : `, ${p.done} of ${p.total}`;
      return { tone: 'busy', label: `Syncing: ${PHASES[p.phase]} ${count}`, detail: null, name: `${PHASE_SENTENCES[p.phase]}${far}.`, progress };
    }
    case 'offline':
      return {
        tone: 'offline',
        label: `Offline, retrying ${retryIn(status.nextRetryAt, now)}`,
        detail: retryDetail(status),
        name: `${offlineReason(status.cause)}${waiting(pending, 'it is back')}`,
        progress: null,
      };
    case 'unauthorized':
      return { tone: 'error', label: 'Signed out by the server', detail: status.error, name: `Signed out by the server: sign in again to continue.${waiting(pending, 'you are signed in again')}`, progress: null };
    case 'error':
      return {
        tone: 'error',
        label: `Error, retrying ${retryIn(status.nextRetryAt, now)}`,
        detail: retryDetail(status),
        name: `Not syncing: the server's answers cannot be used; trying again ${retryIn(status.nextRetryAt, now)}.${waiting(pending, 'this is fixed')}`,
        progress: null,
      };
    case 'disk_full': {
      const detail =
        status.reason === 'full'
          ? 'The disk is full: changes are not saved until there is room again; everything already queued is kept and resumes by itself.'
          : 'The disk refuses writes: changes are not saved until it works again; everything already queued is kept.';
      const label = `${status.reason === 'full' ? 'Disk full' : 'Disk error'}, retrying ${retryIn(status.nextRetryAt, now)}`;
      return { tone: 'error', label, detail: `${detail} (${status.error})`, name: detail, progress: null };
    }
  }
}

/** Whether the indicator counts down (so the store ticks `now` only then). */
export function needsTicking(status: SessionStatus | null): boolean {
  return status !== null && (status.state === 'offline' || status.state === 'error' || status.state === 'disk_full');
}
