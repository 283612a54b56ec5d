/** A topic's menu and moves: visibility choices, resolving, the move form's request, a view following a move. */
import { describe, expect, it } from 'vitest';
import { followMove, moveChanged, moveFields, moveRequest } from '../../../renderer/src/shared/move-form.js';
import { checkedPolicy, isResolved, resolvedName, topicMenuModel, visibilityChoices } from '../../../renderer/src/actions/topic-actions.js';

describe('visibility', () => {
  it('offers Unmute only in a muted channel, as Zulip does', () => {
    expect(visibilityChoices(false).map((c) => c.label)).toEqual(['Mute', 'Default', 'Follow']);
    expect(visibilityChoices(true).map((c) => [c.label, c.policy])).toEqual([
      ['Mute', 1],
      ['Default', 0],
      ['Unmute', 2],
      ['Follow', 3],
    ]);
  });

  it('checks the topic’s policy; "unmuted" outside a muted channel reads as Default', () => {
    expect(checkedPolicy(1, false)).toBe(1);
    expect(checkedPolicy(3, true)).toBe(3);
    expect(checkedPolicy(2, true)).toBe(2);
    expect(checkedPolicy(2, false)).toBe(0);
    expect(checkedPolicy(0, true)).toBe(0);
  });
});

describe('resolving', () => {
  it('adds or drops the ✔ prefix', () => {
    expect(resolvedName('the feud', true)).toBe('✔ the feud');
    expect(resolvedName('✔ the feud', true)).toBe('✔ the feud');
    expect(resolvedName('✔ the feud', false)).toBe('the feud');
    expect(isResolved('✔ x')).toBe(true);
    expect(isResolved('✔x')).toBe(false);
  });

  it('the menu follows the role and the connection', () => {
    expect(topicMenuModel('lunch', 100, true)).toEqual({ resolve: 'resolve', move: true, delete: { enabled: true } });
    expect(topicMenuModel('✔ lunch', 400, true)).toEqual({ resolve: 'unresolve', move: true, delete: null });
    expect(topicMenuModel('lunch', 200, false).delete).toEqual({ enabled: false });
    expect(topicMenuModel('lunch', 600, true)).toEqual({ resolve: null, move: false, delete: null });
  });
});

describe('the move form', () => {
  it('starts where the messages are, notices to the new topic only', () => {
    const f = moveFields({ channelId: 3, topic: 'lunch' }, 'change_later');
    expect(f).toMatchObject({ channelId: 3, topic: 'lunch', propagate: 'change_later', notifyNew: true, notifyOld: false });
    expect(moveChanged(f)).toBe(false);
    expect(moveRequest(7, f)).toBeNull();
    // Spaces around the same name are no change.
    expect(moveChanged({ ...f, topic: ' lunch ' })).toBe(false);
  });

  it('asks for what changed only: the topic, the channel, or both', () => {
    const f = moveFields({ channelId: 3, topic: 'lunch' }, 'change_all');
    expect(moveRequest(7, { ...f, topic: ' dinner ' })).toEqual({ message_id: 7, topic: 'dinner', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true });
    expect(moveRequest(7, { ...f, channelId: 4, notifyOld: true })).toEqual({ message_id: 7, channel_id: 4, propagate_mode: 'change_all', send_notification_to_old_thread: true, send_notification_to_new_thread: true });
    expect(moveRequest(7, { ...f, channelId: 4, topic: 'x', notifyNew: false })).toMatchObject({ channel_id: 4, topic: 'x', send_notification_to_new_thread: false });
  });

  it('a view of the topic follows a move of all of it, and only then', () => {
    const from = { channelId: 3, topic: 'Lunch' };
    expect(followMove({ channelId: 3, topic: 'lunch' }, { topic: 'dinner', propagate_mode: 'change_all' }, from)).toEqual({ channelId: 3, topic: 'dinner' });
    expect(followMove({ channelId: 3, topic: 'lunch' }, { channel_id: 4, propagate_mode: 'change_all' }, from)).toEqual({ channelId: 4, topic: 'Lunch' });
    expect(followMove({ channelId: 3, topic: 'lunch' }, { topic: 'dinner', propagate_mode: 'change_later' }, from)).toBeNull();
    expect(followMove({ channelId: 3, topic: 'other' }, { topic: 'dinner', propagate_mode: 'change_all' }, from)).toBeNull();
    expect(followMove(null, { topic: 'dinner', propagate_mode: 'change_all' }, from)).toBeNull();
  });
});
