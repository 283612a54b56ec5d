/**
 * Pure: the outbox panel's rows in words. Every queued change says what it changes ("Star 2
 * messages", "Send to #Verona › lunch": its kind's own description, computed by the engine), where
 * (a link into the app when there is a place to go), its state, attempts, next retry, deadline and typed error; and which actions the
 * row offers (retry a failed or conflicting one; discard one not being sent or checked).
 */
import type { OutboxLink, OutboxRowView } from '../../../sync/protocol/outbox.js';
import { buildHash, channelSlug, encodeHashComponent } from '../core/hash.js';
import { settingLabel, settingsHref } from '../settings/settings-model.js';

export type PanelFilter = 'all' | 'pending' | 'failed' | 'conflict';

export interface PanelRow {
  readonly id: number;
  readonly what: string;
  /** An in-app link to the thing it changes, when there is one. */
  readonly href: string | null;
  readonly state: OutboxRowView['state'];
  readonly stateLabel: string;
  readonly tone: 'pending' | 'failed' | 'conflict' | 'done';
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly deadlineAt: number | null;
  readonly error: string | null;
  readonly canRetry: boolean;
  readonly canDiscard: boolean;
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
      return {
        id: r.outbox_id,
        what: d.what,
        href: d.href,
        state: r.state,
        stateLabel: STATE_LABELS[r.state],
        tone: toneOf(r.state),
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        deadlineAt: r.deadline_at,
        error: r.last_error?.message ?? null,
        // As the outbox's state machine allows (sync/outbox/states.ts); a waiting row goes with "Retry all now".
        canRetry: r.state === 'failed' || r.state === 'conflict',
        canDiscard: r.state === 'queued' || r.state === 'failed' || r.state === 'conflict' || r.state === 'retry_wait',
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
