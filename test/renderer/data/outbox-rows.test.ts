/**
 * The outbox rows the page holds are typed by their kind (`OutboxRowOf`, derived from the kinds'
 * one list): narrowing on `kind` gives that kind's args, and reading another kind's field, or args
 * before ruling out `null` (a row the engine could not read), does not type-check. This file is in
 * the renderer's TypeScript project, so `npm run typecheck` fails when an `@ts-expect-error` below
 * stops being an error.
 */
import { describe, expect, it } from 'vitest';
import type { ArgsOf, OutboxChange, OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OperationResponse } from '../../../renderer/src/core/operations.js';
import { outboxRow } from '../fixtures.js';

const moveArgs: ArgsOf<'update_message_move'> = { message_id: 9, topic: 'new home', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true };
const move: OutboxChange = { kind: 'update_message_move', args: moveArgs };

/** What a narrowing reader of rows sees: the topic of a move, or nothing. */
function topicOfMove(r: OutboxRowOf): string | undefined {
  if (r.kind !== 'update_message_move' || r.args === null) return undefined;
  // @ts-expect-error a move's args have no `subscriptions` (an unsubscribe's field)
  void r.args.subscriptions;
  return r.args.topic;
}

describe('outbox rows typed by kind', () => {
  it('narrowing on kind gives the kind’s args; rows of other kinds or unread args give nothing', () => {
    expect(topicOfMove(outboxRow(move))).toBe('new home');
    expect(topicOfMove(outboxRow({ kind: 'unsubscribe', args: { subscriptions: ['new home'] } }))).toBeUndefined();
    expect(topicOfMove(outboxRow({ kind: 'update_message_move', args: null }))).toBeUndefined();
    expect(topicOfMove(outboxRow({ kind: 'from_the_future' }))).toBeUndefined();
  });

  it('refuses, at type-check time, args of another kind and args read before ruling out null', () => {
    // @ts-expect-error an unsubscribe's args are channel names, not a move
    const wrong: OutboxChange = { kind: 'unsubscribe', args: moveArgs };
    // @ts-expect-error a kind this app does not know carries no args but null
    const invented: OutboxChange = { kind: 'from_the_future', args: { x: 1 } };
    const r = outboxRow(move);
    if (r.kind === 'update_message_move') {
      // @ts-expect-error the engine may not have been able to read them: null until ruled out
      void r.args.topic;
    }
    expect([wrong.kind, invented.kind]).toEqual(['unsubscribe', 'from_the_future']);
  });

  it('the `outbox` query answers these rows (the bridge types them so)', () => {
    const rows: OperationResponse<'outbox'> = [outboxRow(move)];
    const first: OutboxRowOf | undefined = rows[0];
    expect(first?.kind).toBe('update_message_move');
  });
});
