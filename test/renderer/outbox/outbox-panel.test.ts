/** The outbox panel's rows in words, and the sign-out dialog's choices. */
import { describe, expect, it } from 'vitest';
import { choices, leftBehindText, mustAsk } from '../../../renderer/src/accounts/sign-out-reducer.js';
import { describeRow, hrefOf, inWords, panelRows } from '../../../renderer/src/outbox/panel-reducer.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { outboxRow } from '../fixtures.js';

const row = (over: Partial<Omit<OutboxRowView, 'args'>>): OutboxRowView => outboxRow({ outbox_id: 1, ...over });

describe('outbox panel rows', () => {
  it('show the engine’s words, with the link spelled by the router and settings labelled', () => {
    const d = (text: string, link: OutboxRowView['description']['link']) => describeRow({ description: { text, link } });
    expect(d('Send a message to #Verona › lunch', { to: 'channel', channel_id: 5, name: 'Verona', topic: 'lunch' })).toEqual({ what: 'Send a message to #Verona › lunch', href: '#narrow/channel/5-Verona/topic/lunch' });
    expect(d('Star 1 message', { to: 'message', message_id: 3 })).toEqual({ what: 'Star 1 message', href: '#narrow/near/3' });
    expect(d('Mark all messages as read', null)).toEqual({ what: 'Mark all messages as read', href: null });
    expect(d('Change settings', { to: 'settings', settings: ['web_font_size_px', 'color_scheme'] })).toEqual({ what: 'Change settings: Font size, Theme', href: '#settings/preferences' });
    expect(d('Change settings', { to: 'settings', settings: ['enable_sounds', 'a_future_one'] })).toEqual({ what: 'Change settings: Audible desktop notifications for direct messages and mentions, a_future_one', href: '#settings/notifications' });
    expect(hrefOf({ to: 'group', group_id: 20, name: 'players' })).toBe('#groups/20/players');
    expect(hrefOf({ to: 'group', group_id: 22 })).toBe('#groups/22');
    expect(hrefOf({ to: 'channels' })).toBe('#channels/all');
    expect(hrefOf({ to: 'scheduled' })).toBe('#scheduled');
  });

  it('carry state, error and the actions the state machine allows; filters by tone', () => {
    const rows = [
      row({ outbox_id: 1, state: 'queued' }),
      row({ outbox_id: 2, state: 'failed', attempts: 2, last_error: { kind: 'api', code: 'BAD_REQUEST', message: 'Editing is off', details: null } }),
      row({ outbox_id: 3, state: 'conflict' }),
      row({ outbox_id: 4, state: 'sending' }),
      row({ outbox_id: 5, state: 'unknown', next_attempt_at: 5_000 }),
    ];
    const all = panelRows(rows, 'all');
    expect(all.map((r) => [r.id, r.tone, r.canRetry, r.canDiscard])).toEqual([
      [1, 'pending', false, true],
      [2, 'failed', true, true],
      [3, 'conflict', true, true],
      [4, 'pending', false, false],
      [5, 'pending', false, false],
    ]);
    expect(all[1]).toMatchObject({ error: 'Editing is off', stateLabel: 'Failed', attempts: 2 });
    expect(panelRows(rows, 'failed').map((r) => r.id)).toEqual([2]);
    expect(panelRows(rows, 'pending').map((r) => r.id)).toEqual([1, 4, 5]);
    expect(all[3]).toMatchObject({ error: null, note: null, waitingForNetwork: false });
    expect(inWords(5_000, 0)).toBe('in 5 s');
    expect(inWords(200_000, 0)).toBe('in 4 min');
    expect(inWords(0, 10)).toBe('now');
  });

  it('a scheduled message refused for its time offers its fix (send now or a new time) instead of a retry that would fail again', () => {
    const refused = { kind: 'api', code: 'BAD_REQUEST', message: 'Scheduled delivery time must be in the future.', details: null };
    const [r, other] = panelRows(
      [
        row({ outbox_id: 1, kind: 'create_scheduled_message', state: 'failed', attempts: 1, last_error: refused, description: { text: 'Schedule a message', link: { to: 'scheduled' } } }),
        row({ outbox_id: 2, kind: 'edit_scheduled_message', state: 'failed', attempts: 1, last_error: { ...refused, message: 'Not allowed' } }),
      ],
      'all',
    );
    expect(r).toMatchObject({ canRetry: false, canDiscard: true, fix: { label: 'Send now or pick a new time', href: '#scheduled' } });
    expect(r?.error).toMatch(/time passed before the server got it/);
    expect(other).toMatchObject({ canRetry: true, fix: null, error: 'Not allowed' });
  });
});

describe('outbox panel rows by why they wait', () => {
  const err = (kind: string, message: string, code: string | null = null) => ({ kind, code, message, details: null });

  it('a row held back by the network waits in words: no error, no attempt count, no countdown', () => {
    const [refused, timedOut, checking] = panelRows(
      [
        row({ outbox_id: 1, state: 'retry_wait', attempts: 7, next_attempt_at: 9_000, last_error: err('network', 'The server could not be reached (ECONNREFUSED).') }),
        row({ outbox_id: 2, state: 'queued', attempts: 1, last_error: err('timeout', 'The server did not answer in time.') }),
        row({ outbox_id: 3, state: 'unknown', attempts: 2, next_attempt_at: 9_000, last_error: err('network', 'The server could not be reached (ECONNREFUSED).') }),
      ],
      'all',
    );
    expect(refused).toMatchObject({ stateLabel: 'Waiting for the connection', tone: 'pending', waitingForNetwork: true, attempts: 0, nextAttemptAt: null, error: null, note: 'Waiting for the connection; will send when the server is back.' });
    expect(timedOut).toMatchObject({ stateLabel: 'Waiting for the connection', error: null, attempts: 0, note: 'Waiting for the connection; will send when the server is back.' });
    expect(checking).toMatchObject({ stateLabel: 'Waiting for the connection', error: null, note: 'Waiting for the connection; will check whether it arrived when the server is back.' });
    // Waiting rows are pending, never failed.
    expect(panelRows([row({ state: 'retry_wait', last_error: err('network', 'x') })], 'failed')).toEqual([]);
  });

  it('the server asking to wait is a note with the attempts and the countdown, not an error', () => {
    const [busy] = panelRows([row({ state: 'retry_wait', attempts: 3, next_attempt_at: 9_000, last_error: err('server', 'The server had a problem (HTTP 503).') })], 'all');
    expect(busy).toMatchObject({ stateLabel: 'Will retry', waitingForNetwork: false, attempts: 3, nextAttemptAt: 9_000, error: null, note: 'The server had a problem (HTTP 503).' });
  });

  it('errors stay for what a person acts on: a refusal, a conflict, a missed deadline', () => {
    const rows = panelRows(
      [
        row({ outbox_id: 1, state: 'failed', attempts: 1, last_error: err('api', 'You do not have permission.', 'BAD_REQUEST') }),
        row({ outbox_id: 2, state: 'conflict', attempts: 1, last_error: err('conflict', 'The message was edited elsewhere.') }),
        row({ outbox_id: 3, state: 'failed', attempts: 4, last_error: err('deadline_expired', 'the time limit for this change passed before it could be sent') }),
        // Failed for good after network waits (e.g. a deadline): still an error, with its attempts.
        row({ outbox_id: 4, state: 'failed', attempts: 5, last_error: err('network', 'The server could not be reached (ECONNREFUSED).') }),
      ],
      'all',
    );
    expect(rows.map((r) => [r.stateLabel, r.tone, r.error, r.note, r.attempts])).toEqual([
      ['Failed', 'failed', 'You do not have permission.', null, 1],
      ['Edited elsewhere meanwhile', 'conflict', 'The message was edited elsewhere.', null, 1],
      ['Failed', 'failed', 'the time limit for this change passed before it could be sent', null, 4],
      ['Failed', 'failed', 'The server could not be reached (ECONNREFUSED).', null, 5],
    ]);
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
