/**
 * Pure: what the status indicator shows for the session's status and the host connection. `now`
 * is passed in (the store ticks it) so countdowns are testable without a clock.
 */
import type { SessionStatus, SyncPhase } from '../../../sync/protocol/status.js';

export type StatusTone = 'live' | 'busy' | 'offline' | 'error';

export interface StatusView {
  tone: StatusTone;
  /** Short text next to the dot. */
  label: string;
  /** A longer explanation (tooltip, error text). */
  detail: string | null;
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

export function describeStatus(status: SessionStatus | null, hostUp: boolean, now: number): StatusView {
  if (!hostUp) return { tone: 'offline', label: 'Reconnecting to the app…', detail: 'The connection to the app host was lost.', progress: null };
  if (status === null) return { tone: 'busy', label: 'Starting…', detail: null, progress: null };
  switch (status.state) {
    case 'live':
      return { tone: 'live', label: 'Live', detail: 'Connected; updates arrive as they happen.', progress: null };
    case 'connecting':
      return { tone: 'busy', label: 'Connecting…', detail: null, progress: null };
    case 'stopped':
      return { tone: 'offline', label: 'Stopped', detail: 'Syncing is paused.', progress: null };
    case 'syncing': {
      const p = status.progress;
      const count = p.total === null ? `${p.done}` : `${p.done} / ${p.total}`;
      return { tone: 'busy', label: `Syncing: ${PHASES[p.phase]} ${count}`, detail: null, progress: { value: p.done, max: p.total } };
    }
    case 'offline':
      return { tone: 'offline', label: `Offline, retrying ${retryIn(status.nextRetryAt, now)}`, detail: retryDetail(status), progress: null };
    case 'unauthorized':
      return { tone: 'error', label: 'Signed out by the server', detail: status.error, progress: null };
    case 'error':
      return { tone: 'error', label: `Error, retrying ${retryIn(status.nextRetryAt, now)}`, detail: retryDetail(status), progress: null };    case 'disk_full':
      return status.reason === 'full'
        ? { tone: 'error', label: `Disk full, retrying ${retryIn(status.nextRetryAt, now)}`, detail: `The disk is full: changes are not saved until there is room again; everything already queued is kept and resumes by itself. (${status.error})`, progress: null }
        : { tone: 'error', label: `Disk error, retrying ${retryIn(status.nextRetryAt, now)}`, detail: `The disk refuses writes: changes are not saved until it works again; everything already queued is kept. (${status.error})`, progress: null };
  }
}

/** Whether the indicator counts down (so the store ticks `now` only then). */
export function needsTicking(status: SessionStatus | null): boolean {
  return status !== null && (status.state === 'offline' || status.state === 'error' || status.state === 'disk_full');
}
