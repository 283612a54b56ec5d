/** The outbox panel's rows in words, and the sign-out dialog's choices. */
import { describe, expect, it } from 'vitest';
import { choices, leftBehindText, mustAsk } from '../../../renderer/src/accounts/sign-out-reducer.js';
import { describeRow, inWords, panelRows } from '../../../renderer/src/outbox/panel-reducer.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { outboxRow } from '../fixtures.js';

const names = { channel: (id: number) => (id === 5 ? 'Verona' : undefined), user: (id: number) => (id === 8 ? 'Othello' : undefined) };
const row = (over: Partial<OutboxRowView>): OutboxRowView => outboxRow({ outbox_id: 1, ...over });

describe('outbox panel rows', () => {
  it('say what each kind changes, with a link where there is a place to go', () => {
    expect(describeRow({ kind: 'message_send', args: { to: { type: 'channel', stream_id: 5, topic: 'lunch' } } }, names)).toEqual({ what: 'Send a message to #Verona › lunch', href: '#narrow/channel/5-Verona/topic/lunch' });
    expect(describeRow({ kind: 'message_send', args: { to: { type: 'direct', user_ids: [8, 9] } } }, names).what).toBe('Send a direct message to Othello, user 9');
    expect(describeRow({ kind: 'message_flags', args: { messages: [3], op: 'add', flag: 'starred' } }, names)).toEqual({ what: 'Star 1 message', href: '#narrow/near/3' });
    expect(describeRow({ kind: 'message_flags', args: { messages: [3, 4], op: 'remove', flag: 'read' } }, names).what).toBe('Mark 2 messages as unread');
    expect(describeRow({ kind: 'user_topic_set', args: { stream_id: 5, topic: 'noise', visibility_policy: 1 } }, names).what).toBe('Mute #Verona › noise');
    expect(describeRow({ kind: 'mark_narrow_read', args: { narrow: [{ operator: 'channel', operand: 5 }] } }, names).what).toBe('Mark #Verona as read');
    expect(describeRow({ kind: 'message_reaction', args: { message_id: 7, op: 'add', emoji_name: 'tada' } }, names)).toEqual({ what: 'React :tada:', href: '#narrow/near/7' });
    expect(describeRow({ kind: 'user_settings_update', args: { web_font_size_px: 18, color_scheme: 2 } }, names)).toEqual({ what: 'Change settings: Font size, Theme', href: '#settings/preferences' });
    expect(describeRow({ kind: 'user_settings_update', args: { enable_sounds: true, a_future_one: 1 } }, names)).toEqual({ what: 'Change settings: Audible desktop notifications for direct messages and mentions, a_future_one', href: '#settings/notifications' });
    expect(describeRow({ kind: 'from_the_future', args: {} }, names).what).toBe('A change this app does not know (from_the_future)');
  });

  it('say what a navigation view change does: add a custom view, pin or unpin a built-in one, rename, remove', () => {
    expect(describeRow({ kind: 'navigation_view_add', args: { fragment: 'narrow/channel/5-Verona', is_pinned: true, name: 'Veronese' } }, names).what).toBe('Add the view “Veronese”');
    expect(describeRow({ kind: 'navigation_view_add', args: { fragment: 'recent', is_pinned: false, name: null } }, names).what).toBe('Unpin the view #recent');
    expect(describeRow({ kind: 'navigation_view_edit', args: { fragment: 'recent', is_pinned: true } }, names).what).toBe('Change the view #recent: pin it');
    expect(describeRow({ kind: 'navigation_view_edit', args: { fragment: 'narrow/is/dm', is_pinned: false, name: 'DMs' } }, names).what).toBe('Change the view #narrow/is/dm: unpin it, rename it “DMs”');
    expect(describeRow({ kind: 'navigation_view_delete', args: { fragment: 'narrow/is/dm' } }, names).what).toBe('Remove the view #narrow/is/dm');
  });

  it('carry state, error and the actions the state machine allows; filters by tone', () => {
    const rows = [
      row({ outbox_id: 1, state: 'queued' }),
      row({ outbox_id: 2, state: 'failed', attempts: 2, last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Editing is off', details: null } }),
      row({ outbox_id: 3, state: 'conflict' }),
      row({ outbox_id: 4, state: 'sending' }),
      row({ outbox_id: 5, state: 'unknown', next_attempt_at: 5_000 }),
    ];
    const all = panelRows(rows, names, 'all');
    expect(all.map((r) => [r.id, r.tone, r.canRetry, r.canDiscard])).toEqual([
      [1, 'pending', false, true],
      [2, 'failed', true, true],
      [3, 'conflict', true, true],
      [4, 'pending', false, false],
      [5, 'pending', false, false],
    ]);
    expect(all[1]).toMatchObject({ error: 'Editing is off', stateLabel: 'Failed', attempts: 2 });
    expect(panelRows(rows, names, 'failed').map((r) => r.id)).toEqual([2]);
    expect(panelRows(rows, names, 'pending').map((r) => r.id)).toEqual([1, 4, 5]);
    expect(inWords(5_000, 0)).toBe('in 5 s');
    expect(inWords(200_000, 0)).toBe('in 4 min');
    expect(inWords(0, 10)).toBe('now');
  });
});

describe('sign-out dialog', () => {
  it('asks only when something would be left behind, and says what', () => {
    expect(mustAsk({ pending: 0, failed: 0, conflict: 0, drafts: 0 })).toBe(false);
    expect(mustAsk({ pending: 0, failed: 0, conflict: 0, drafts: 1 })).toBe(true);
    expect(leftBehindText({ pending: 2, failed: 1, conflict: 0, drafts: 3 })).toBe('This device has 2 changes waiting to be sent, 1 change that failed and 3 drafts for this account.');
  });

  it('offers send-first only when something can be sent; discard is named and marked', () => {
    expect(choices({ pending: 1, failed: 0, conflict: 0, drafts: 0 }).map((c) => [c.choice, c.label, c.danger])).toEqual([
      ['wait', 'Send them first, then sign out', false],
      ['keep', 'Keep them and sign out', false],
      ['discard', 'Discard them and sign out', true],
    ]);
    expect(choices({ pending: 0, failed: 1, conflict: 0, drafts: 0 }).map((c) => c.choice)).toEqual(['keep', 'discard']);
    expect(choices({ pending: 0, failed: 0, conflict: 0, drafts: 2 }).at(-1)?.label).toBe('Delete the drafts and sign out');
  });
});
