/**
 * A row as the contract shows it (`rowView`): its args are read with its kind's own schema, so the
 * typed rows the page narrows on (`OutboxRowOf`) hold what their type says; a row of a kind or
 * version this app does not know, or whose args no longer parse, shows with `args: null`.
 */
import { describe, expect, it } from 'vitest';
import type { Names } from '../../../sync/outbox/kinds.js';
import type { OutboxRow } from '../../../sync/outbox/store.js';
import { outboxRowSchema } from '../../../sync/protocol/outbox.js';
import { rowView } from '../../../sync/service/handlers-outbox.js';

const names: Names = { channel: (id) => (id === 5 ? 'Verona' : undefined), user: () => undefined, group: () => undefined };

const stored = (kind: string, args: unknown, kindVersion = 1): OutboxRow => ({
  id: 3,
  kind,
  kindVersion,
  entityKey: 'x',
  args,
  base: null,
  state: 'failed',
  attempts: 1,
  nextAttemptAt: null,
  deadlineAt: null,
  lastError: null,
  createdAt: 1,
  updatedAt: 2,
  history: [],
});

describe('a row as the contract shows it', () => {
  it("carries a known kind's args as its schema reads them, and passes the contract's row schema", () => {
    const v = rowView(stored('unsubscribe', { subscriptions: ['Verona'] }), names);
    expect(outboxRowSchema.parse(v)).toEqual(v);
    expect(v).toMatchObject({ outbox_id: 3, kind: 'unsubscribe', target: 'x', state: 'failed', args: { subscriptions: ['Verona'] } });
    if (v.kind !== 'unsubscribe' || v.args === null) throw new Error('typed as an unsubscribe');
    expect(v.args.subscriptions).toEqual(['Verona']);
    // Defaults the schema fills in are there too (a members change stored without `delete`).
    expect(rowView(stored('update_user_group_members', { user_group_id: 4, add: [8] }), names).args).toEqual({ user_group_id: 4, add: [8], delete: [] });
  });

  it('shows args it cannot read as null: an unknown kind, an unknown version, args that no longer parse', () => {
    const future = rowView(stored('from_the_future', { x: 1 }), names);
    expect(future).toMatchObject({ kind: 'from_the_future', args: null, description: { text: 'A change this app does not know (from_the_future)' } });
    expect(rowView(stored('unsubscribe', { subscriptions: ['Verona'] }, 2), names)).toMatchObject({ kind: 'unsubscribe', args: null });
    const broken = rowView(stored('unsubscribe', { subscriptions: 'Verona' }), names);
    expect(broken).toMatchObject({ kind: 'unsubscribe', args: null });
    expect(outboxRowSchema.parse(broken)).toEqual(broken);
  });
});
