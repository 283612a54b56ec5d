/** The outbox on screen: header badges from the counts, a message's marker, and when Edit is offered. */
import { describe, expect, it } from 'vitest';
import type { ArgsOf } from '../../../sync/outbox/registry.js';
import { canEdit, kindsById, messageMarker, outboxBadges, partialMoveOffer, SEND_KIND, technicalReason } from '../../../renderer/src/data/outbox-reducer.js';
import { message, outboxRow } from '../fixtures.js';

type MoveArgs = ArgsOf<'update_message_move'>;

type Err = { kind: string; code: string | null; message: string; details: Record<string, unknown> | null };
const err = (message: string, kind = 'internal', code: string | null = null): Err => ({ kind, code, message, details: null });
const local = (status: 'server' | 'pending' | 'failed' | 'conflict', outbox_id: number | null = 7, error: Err | null = null) => ({ local: { status, outbox_id, error } });

describe('outbox badges', () => {
  it('are hidden when nothing waits, and before the counts are known', () => {
    expect(outboxBadges({ pending: 0, failed: 0, conflict: 0 })).toEqual([]);
    expect(outboxBadges(null)).toEqual([]);
  });

  it('say how many are pending, failed and in conflict, the most urgent first', () => {
    expect(outboxBadges({ pending: 3, failed: 1, conflict: 2 })).toEqual([
      { tone: 'conflict', label: '2 conflicts' },
      { tone: 'failed', label: '1 failed' },
      { tone: 'pending', label: '3 pending' },
    ]);
    expect(outboxBadges({ pending: 1, failed: 0, conflict: 1 })).toEqual([
      { tone: 'conflict', label: '1 conflict' },
      { tone: 'pending', label: '1 pending' },
    ]);
  });
});

describe('message markers', () => {
  it('none for the server state', () => {
    expect(messageMarker(local('server', null), undefined)).toBeNull();
  });

  it('pending: "sending" for a message being sent, "saving" for an edit (also before the row is listed)', () => {
    expect(messageMarker(local('pending', 4), SEND_KIND)).toEqual({ status: 'pending', label: 'sending', outboxId: 4 });
    expect(messageMarker(local('pending', 5), 'update_message_content')).toEqual({ status: 'pending', label: 'saving', outboxId: 5 });
    expect(messageMarker(local('pending', 5), undefined)).toMatchObject({ label: 'saving' });
    expect(messageMarker(local('pending', 6), 'delete_message')).toEqual({ status: 'pending', label: 'deleting', outboxId: 6 });
  });

  it('failed carries the reason and the row to retry or discard', () => {
    expect(messageMarker(local('failed', 9, err('edit deadline passed', 'deadline_expired')), 'update_message_content')).toEqual({
      status: 'failed',
      label: 'Edit not saved',
      detail: 'edit deadline passed',
      reason: 'deadline_expired: edit deadline passed',
      outboxId: 9,
    });
    expect(messageMarker(local('failed', 9), SEND_KIND)).toMatchObject({ label: 'Not sent', detail: null });
    expect(messageMarker(local('failed', 9), 'add_or_remove_reaction')).toMatchObject({ label: 'Reaction not saved' });
    expect(messageMarker(local('failed', 9), 'send_submessage')).toMatchObject({ label: 'Poll or to-do change not saved' });
    expect(messageMarker(local('failed', 9), 'update_message_flags')).toMatchObject({ label: 'Star or read mark not saved' });
    expect(messageMarker(local('failed', 9), 'update_message_move')).toMatchObject({ label: 'Move not saved' });
    expect(messageMarker(local('failed', 9), 'delete_message')).toMatchObject({ label: 'Not deleted' });
  });

  it("failed shows the server's own sentence from the structured error, its kind and code as the reason", () => {
    const error = err('Your organization has turned off message editing', 'api', 'BAD_REQUEST');
    expect(messageMarker(local('failed', 2, error), 'update_message_content')).toMatchObject({ detail: 'Your organization has turned off message editing', reason: 'api BAD_REQUEST: Your organization has turned off message editing' });
    expect(technicalReason(null)).toBeNull();
  });

  it('conflict explains itself and keeps the engine reason apart', () => {
    const m = messageMarker(local('conflict', 3, err('both changed line 2', 'conflict')), 'update_message_content');
    expect(m).toMatchObject({ status: 'conflict', outboxId: 3, reason: 'conflict: both changed line 2' });
    expect(m?.status === 'conflict' && m.detail).toMatch(/changed this message after you started editing it/);
    expect(messageMarker(local('conflict', 3), undefined)).toMatchObject({ reason: null });
  });

  it('row kinds are looked up by outbox id', () => {
    expect(kindsById([{ outbox_id: 1, kind: SEND_KIND }, { outbox_id: 2, kind: 'x' }]).get(2)).toBe('x');
  });
});

describe('when Edit is offered', () => {
  const own = 10;
  it('on own server messages only, and only once the own id is known', () => {
    expect(canEdit(message(1, { sender_id: own }), own, undefined)).toBe(true);
    expect(canEdit(message(1, { sender_id: 11 }), own, undefined)).toBe(false);
    expect(canEdit(message(1, { sender_id: own }), null, undefined)).toBe(false);
  });

  it('on an own message with an edit pending, never on a local echo being sent or a failed / conflicting one', () => {
    expect(canEdit(message(1, { sender_id: own, ...local('pending') }), own, 'update_message_content')).toBe(true);
    expect(canEdit(message(1, { sender_id: own, ...local('pending') }), own, SEND_KIND)).toBe(false);
    expect(canEdit(message(1, { sender_id: own, ...local('pending') }), own, undefined)).toBe(false);
    expect(canEdit(message(1, { sender_id: own, ...local('failed') }), own, 'update_message_content')).toBe(false);
    expect(canEdit(message(1, { sender_id: own, ...local('conflict') }), own, 'update_message_content')).toBe(false);
  });
});

describe('the partial move offer', () => {
  const failedMove = (details: Record<string, unknown> | null, args: MoveArgs | null = { message_id: 9, topic: 'new home', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true }) =>
    outboxRow({
      kind: 'update_message_move',
      state: 'failed',
      args,
      last_error: { kind: 'api', code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', message: 'You only have permission to move the 3/5 most recent messages in this topic.', details },
    });

  it('offers the same move from the first message the user may move, change_later', () => {
    expect(partialMoveOffer(failedMove({ first_message_id_allowed_to_move: 12, total_messages_in_topic: 5, total_messages_allowed_to_move: 3 }))).toEqual({
      request: { message_id: 12, topic: 'new home', propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: true },
      label: 'Move the 3 of 5 messages you may move',
    });
    expect(partialMoveOffer(failedMove({ first_message_id_allowed_to_move: 12 }, { message_id: 9, stream_id: 4, propagate_mode: 'change_all', send_notification_to_old_thread: true, send_notification_to_new_thread: false }))?.request).toEqual({
      message_id: 12,
      channel_id: 4,
      propagate_mode: 'change_later',
      send_notification_to_old_thread: true,
      send_notification_to_new_thread: false,
    });
  });

  it('nothing when none may move, for other failures, or for other kinds', () => {
    expect(partialMoveOffer(failedMove({ first_message_id_allowed_to_move: null }))).toBeNull();
    expect(partialMoveOffer({ ...failedMove({ first_message_id_allowed_to_move: 12 }), last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'x', details: null } })).toBeNull();
    const { kind: _move, args: _args, ...rest } = failedMove({ first_message_id_allowed_to_move: 12 });
    expect(partialMoveOffer({ ...rest, kind: 'update_message_content', args: { message_id: 9, content: 'x' } })).toBeNull();
    // A move whose args the engine could not read offers nothing.
    expect(partialMoveOffer(failedMove({ first_message_id_allowed_to_move: 12 }, null))).toBeNull();
    expect(partialMoveOffer(undefined)).toBeNull();
  });
});
