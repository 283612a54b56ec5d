/**
 * Each kind says what its row changes, in the words the outbox panel shows, and where that is
 * (`describe` in its module; the engine computes it with names from the local store).
 */
import { describe, expect, it } from 'vitest';
import type { Names } from '../../../sync/outbox/kinds.js';
import { describeRow } from '../../../sync/outbox/registry.js';

const names: Names = { channel: (id: number) => (id === 5 ? 'Verona' : undefined), user: (id: number) => (id === 8 ? 'Othello' : undefined), group: () => undefined };
const none: Names = { channel: () => undefined, user: () => undefined, group: () => undefined };
const text = (kind: string, args: unknown, n: Names = names) => describeRow(kind, args, n).text;

describe('a row in words', () => {
  it('says what each kind changes, with where that is', () => {
    expect(describeRow('send_message', { local_id: '1', to: { type: 'channel', stream_id: 5, topic: 'lunch' }, content: 'hi' }, names)).toEqual({
      text: 'Send a message to #Verona › lunch',
      link: { to: 'channel', channel_id: 5, name: 'Verona', topic: 'lunch' },
    });
    expect(text('send_message', { local_id: '1', to: { type: 'direct', user_ids: [8, 9] }, content: 'hi' })).toBe('Send a direct message to Othello, user 9');
    expect(describeRow('update_message_flags', { messages: [3], op: 'add', flag: 'starred' }, names)).toEqual({ text: 'Star 1 message', link: { to: 'message', message_id: 3 } });
    expect(describeRow('update_message_flags', { messages: [3, 4], op: 'remove', flag: 'read' }, names)).toEqual({ text: 'Mark 2 messages as unread', link: null });
    expect(text('update_user_topic', { stream_id: 5, topic: 'noise', visibility_policy: 1 })).toBe('Mute #Verona › noise');
    expect(text('update_message_flags_for_narrow', { narrow: [{ operator: 'channel', operand: 5 }] })).toBe('Mark #Verona as read');
    expect(text('update_message_flags_for_narrow', { narrow: [] })).toBe('Mark all messages as read');
    expect(describeRow('add_or_remove_reaction', { message_id: 7, op: 'add', emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' }, names)).toEqual({ text: 'React :tada:', link: { to: 'message', message_id: 7 } });
    expect(describeRow('update_settings', { web_font_size_px: 18, color_scheme: 2 }, names)).toEqual({ text: 'Change settings', link: { to: 'settings', settings: ['web_font_size_px', 'color_scheme'] } });
    expect(text('send_scheduled_message_now', { scheduled_message_id: 4, to: { type: 'direct', user_ids: [8] }, content: 'x' })).toBe('Send a scheduled message now');
  });

  it('a kind this app does not know, or args it cannot read, still say something', () => {
    expect(describeRow('from_the_future', {}, names)).toEqual({ text: 'A change this app does not know (from_the_future)', link: null });
    expect(text('update_message_flags', { messages: 'not a list' })).toBe('A change this app does not know (update_message_flags)');
  });

  it('says what a navigation view change does: add a custom view, pin or unpin a built-in one, rename, remove', () => {
    expect(text('add_navigation_view', { fragment: 'narrow/channel/5-Verona', is_pinned: true, name: 'Veronese' })).toBe('Add the view “Veronese”');
    expect(text('add_navigation_view', { fragment: 'recent', is_pinned: false, name: null })).toBe('Unpin the view #recent');
    expect(text('edit_navigation_view', { fragment: 'recent', is_pinned: true })).toBe('Change the view #recent: pin it');
    expect(text('edit_navigation_view', { fragment: 'narrow/is/dm', is_pinned: false, name: 'DMs' })).toBe('Change the view #narrow/is/dm: unpin it, rename it “DMs”');
    expect(text('remove_navigation_view', { fragment: 'narrow/is/dm' })).toBe('Remove the view #narrow/is/dm');
  });

  it('says what a move takes along: a whole topic renamed or moved, this and later messages, or one message', () => {
    const move = (over: Record<string, unknown>) => describeRow('update_message_move', { message_id: 7, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false, ...over }, names);
    expect(move({ topic: 'castle walls' })).toEqual({ text: 'Rename the topic to “castle walls”', link: { to: 'message', message_id: 7 } });
    expect(move({ topic: '✔ castle walls' }).text).toBe('Resolve the topic “castle walls”');
    expect(move({ topic: 'castle', stream_id: 5 }).text).toBe('Move the topic to #Verona › castle');
    expect(move({ stream_id: 6 }).text).toBe('Move the topic to #channel 6');
    expect(move({ topic: 'later', propagate_mode: 'change_later' }).text).toBe('Move this and later messages to the topic “later”');
    expect(move({ topic: '', propagate_mode: 'change_one' }).text).toBe('Move a message to the topic “general chat”');
    expect(move({ stream_id: 5, propagate_mode: 'change_one' }).text).toBe('Move a message to #Verona');
  });

  it('names the channels of subscribes and unsubscribes', () => {
    expect(describeRow('subscribe', { subscriptions: [{ name: 'Scotland' }] }, none)).toEqual({ text: 'Subscribe to #Scotland', link: { to: 'channels' } });
    expect(describeRow('unsubscribe', { subscriptions: ['Verona', 'Denmark'] }, none)).toEqual({ text: 'Unsubscribe from #Verona, #Denmark', link: null });
  });

  it('says what each group change does, linked to the group', () => {
    const groupNames: Record<number, string> = { 20: 'players', 21: 'leads', 22: 'retired' };
    const people: Record<number, string> = { 13: 'King Hamlet', 15: 'Cordelia' };
    const n = { channel: () => undefined, user: (id: number) => people[id], group: (id: number) => groupNames[id] };
    expect(describeRow('update_user_group', { user_group_id: 20, name: 'the cast' }, n)).toEqual({ text: 'Rename “players” to “the cast”', link: { to: 'group', group_id: 20, name: 'players' } });
    // Applied locally already: the list shows the new name.
    expect(text('update_user_group', { user_group_id: 20, name: 'players' }, n)).toBe('Rename a user group to “players”');
    expect(text('update_user_group_members', { user_group_id: 21, add: [15], delete: [] }, n)).toBe('Add Cordelia to “leads”');
    expect(text('update_user_group_members', { user_group_id: 21, add: [], delete: [13] }, n)).toBe('Remove King Hamlet from “leads”');
    expect(text('update_user_group_subgroups', { user_group_id: 20, add: [22], delete: [] }, n)).toBe('Add the subgroup retired to “players”');
    expect(text('update_user_group_permissions', { user_group_id: 21, settings: { can_mention_group: { new: 11 }, can_join_group: { new: 12 } } }, n)).toBe('Change who can mention, join “leads”');
    expect(describeRow('update_user_group_reactivate', { user_group_id: 22 }, n)).toEqual({ text: 'Reactivate “retired”', link: { to: 'group', group_id: 22, name: 'retired' } });
    expect(describeRow('update_user_group_reactivate', { user_group_id: 22 }, none)).toEqual({ text: 'Reactivate a user group', link: { to: 'group', group_id: 22 } });
  });
});
