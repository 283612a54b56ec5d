/**
 * The outbox row's state machine (docs/sync-design.md "Outbox states"), as a pure function so every
 * transition is checked in one place and unit-tested on its own.
 *
 * ```
 *          +-- edit --+            +------ send -------+
 *          v          |            v                   |
 * enqueue -> queued --+-- send --> sending --transient--> retry_wait
 *            ^  ^                  |  |  |  \
 *            |  |        succeeded |  |  |   +--lost / crash_recovered--> unknown <-----+
 *            |  |                  v  |  |                                  | verify   | verify_inconclusive
 *            |  |                done |  +--conflicted--> conflict          v          |  / crash_recovered
 *            |  |                  ^  +--permanent--> failed           verifying ------+
 *            |  |                  |                  ^   |               |  |  |
 *            |  |                  +--verified_applied---------------------+  |  +--verify_failed--> failed
 *            |  +------------------------------------verified_not_applied-----+
 *            +--- retry / edit (failed), retry (conflict), edit (retry_wait)
 *
 *  discard: queued | failed | conflict | retry_wait --> discarded
 *  reject (unknown kind/version, bad args): queued | retry_wait | unknown --> failed
 *  expire (deadline passed): queued | retry_wait --> failed
 * ```
 *
 * In words:
 *   queued     -send->     sending         retry_wait -send-> sending
 *   sending    -succeeded-> done           sending -transient-> retry_wait (also 401: not applied)
 *   sending    -permanent-> failed         sending -conflicted-> conflict
 *   sending    -lost->      unknown        (timeout, reset, malformed success body, aborted)
 *   sending    -crash_recovered-> unknown  (found `sending` when the app starts)
 *   verifying  -crash_recovered-> unknown
 *   unknown    -verify->    verifying
 *   verifying  -verified_applied-> done    verifying -verified_not_applied-> queued
 *   verifying  -verify_inconclusive-> unknown (the read failed transiently; try again later)
 *   verifying  -verify_failed-> failed     (the read failed permanently: a person decides)
 *   failed | conflict -retry-> queued      (user)
 *   queued | failed | conflict | retry_wait -discard-> discarded (user, or create-then-delete)
 *   queued | failed | retry_wait -edit-> queued  (user, new args; a retry_wait row's last attempt
 *                                          did not land, so new args are as safe as a resend)
 *   queued | retry_wait | unknown -reject-> failed (kind or version unknown to this app, bad args)
 *   queued | retry_wait -expire-> failed   (deadline passed before the row could be sent)
 *
 * `done` and `discarded` are terminal; nothing leaves them except pruning.
 */
import { OUTBOX_ROW_STATES, type OutboxRowState } from '../protocol/outbox.js';

export const OUTBOX_STATES = OUTBOX_ROW_STATES;
export type OutboxState = OutboxRowState;

export const OUTBOX_EVENTS = [
  'send',
  'succeeded',
  'transient',
  'permanent',
  'conflicted',
  'lost',
  'crash_recovered',
  'verify',
  'verified_applied',
  'verified_not_applied',
  'verify_inconclusive',
  'verify_failed',
  'retry',
  'discard',
  'edit',
  'reject',
  'expire',
] as const;
export type OutboxEvent = (typeof OUTBOX_EVENTS)[number];

/** Every legal transition: event -> (from -> to). Anything missing is illegal. */
const TABLE: { readonly [E in OutboxEvent]: Partial<Readonly<Record<OutboxState, OutboxState>>> } = {
  send: { queued: 'sending', retry_wait: 'sending' },
  succeeded: { sending: 'done' },
  transient: { sending: 'retry_wait' },
  permanent: { sending: 'failed' },
  conflicted: { sending: 'conflict' },
  lost: { sending: 'unknown' },
  crash_recovered: { sending: 'unknown', verifying: 'unknown' },
  verify: { unknown: 'verifying' },
  verified_applied: { verifying: 'done' },
  verified_not_applied: { verifying: 'queued' },
  verify_inconclusive: { verifying: 'unknown' },
  verify_failed: { verifying: 'failed' },
  retry: { failed: 'queued', conflict: 'queued' },
  discard: { queued: 'discarded', failed: 'discarded', conflict: 'discarded', retry_wait: 'discarded' },
  edit: { queued: 'queued', failed: 'queued', retry_wait: 'queued' },
  reject: { queued: 'failed', retry_wait: 'failed', unknown: 'failed' },
  expire: { queued: 'failed', retry_wait: 'failed' },
};

export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(
    readonly from: OutboxState,
    readonly event: OutboxEvent,
  ) {
    super(`outbox: '${event}' is not allowed in state '${from}'`);
  }
}

/** The state after `event`, or an `IllegalTransitionError`. */
export function transition(from: OutboxState, event: OutboxEvent): OutboxState {
  const to = TABLE[event][from];
  if (to === undefined) throw new IllegalTransitionError(from, event);
  return to;
}

export function canTransition(from: OutboxState, event: OutboxEvent): boolean {
  return TABLE[event][from] !== undefined;
}

/** Every legal (from, event, to) triple, for tests and documentation. */
export function legalTransitions(): { from: OutboxState; event: OutboxEvent; to: OutboxState }[] {
  const out: { from: OutboxState; event: OutboxEvent; to: OutboxState }[] = [];
  for (const event of OUTBOX_EVENTS) {
    for (const from of OUTBOX_STATES) {
      const to = TABLE[event][from];
      if (to !== undefined) out.push({ from, event, to });
    }
  }
  return out;
}

export function isOutboxState(s: string): s is OutboxState {
  return (OUTBOX_STATES as readonly string[]).includes(s);
}
