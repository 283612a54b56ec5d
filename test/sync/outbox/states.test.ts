/** The outbox state machine: every legal transition, and a table of illegal ones. */
import { describe, expect, it } from 'vitest';
import { canTransition, IllegalTransitionError, legalTransitions, OUTBOX_EVENTS, OUTBOX_STATES, transition, type OutboxEvent, type OutboxState } from '../../../sync/outbox/states.js';

const LEGAL: [OutboxState, OutboxEvent, OutboxState][] = [
  ['queued', 'send', 'sending'],
  ['retry_wait', 'send', 'sending'],
  ['sending', 'succeeded', 'done'],
  ['sending', 'transient', 'retry_wait'],
  ['sending', 'permanent', 'failed'],
  ['sending', 'conflicted', 'conflict'],
  ['sending', 'lost', 'unknown'],
  ['sending', 'crash_recovered', 'unknown'],
  ['verifying', 'crash_recovered', 'unknown'],
  ['unknown', 'verify', 'verifying'],
  ['verifying', 'verified_applied', 'done'],
  ['verifying', 'verified_not_applied', 'queued'],
  ['verifying', 'verify_inconclusive', 'unknown'],
  ['verifying', 'verify_failed', 'failed'],
  ['failed', 'retry', 'queued'],
  ['conflict', 'retry', 'queued'],
  ['queued', 'discard', 'discarded'],
  ['failed', 'discard', 'discarded'],
  ['conflict', 'discard', 'discarded'],
  ['retry_wait', 'discard', 'discarded'],
  ['queued', 'edit', 'queued'],
  ['failed', 'edit', 'queued'],
  ['retry_wait', 'edit', 'queued'],
  ['queued', 'reject', 'failed'],
  ['retry_wait', 'reject', 'failed'],
  ['unknown', 'reject', 'failed'],
  ['queued', 'expire', 'failed'],
  ['retry_wait', 'expire', 'failed'],
];

describe('outbox state machine', () => {
  it.each(LEGAL)('%s --%s--> %s', (from, event, to) => {
    expect(transition(from, event)).toBe(to);
    expect(canTransition(from, event)).toBe(true);
  });

  it('the table above is exactly the machine (nothing legal is untested)', () => {
    expect(legalTransitions().map((t) => [t.from, t.event, t.to]).sort()).toEqual([...LEGAL].sort());
  });

  it.each([
    ['sending', 'send'], // never two requests for one row at once
    ['done', 'retry'],
    ['done', 'discard'], // a landed change cannot be un-sent
    ['sending', 'discard'], // the request may land: discard would lie
    ['sending', 'edit'], // never coalesce or edit while sending
    ['unknown', 'send'], // unknown is verified by reading, never resent blindly
    ['unknown', 'discard'],
    ['verifying', 'send'],
    ['conflict', 'edit'], // a conflict is resolved through retry with the chosen text
    ['discarded', 'retry'],
    ['queued', 'succeeded'],
    ['retry_wait', 'lost'],
    ['failed', 'send'], // a failed row waits for a person
  ] as [OutboxState, OutboxEvent][])('%s --%s--> throws', (from, event) => {
    expect(() => transition(from, event)).toThrow(IllegalTransitionError);
    expect(canTransition(from, event)).toBe(false);
  });

  it('done and discarded are terminal', () => {
    for (const s of ['done', 'discarded'] as const) for (const e of OUTBOX_EVENTS) expect(canTransition(s, e)).toBe(false);
  });

  it('the error names the state and the event', () => {
    const e = (() => {
      try {
        transition('done', 'send');
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(IllegalTransitionError);
    expect(e).toMatchObject({ from: 'done', event: 'send' });
    expect(OUTBOX_STATES).toHaveLength(9);
  });
});
