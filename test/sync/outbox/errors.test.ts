/** Outbox errors cross the contract structured: `{ kind, code, message, details }`, message in words. */
import { describe, expect, it } from 'vitest';
import { NetworkError, ServerError, ZulipApiError } from '../../../sync/api/errors.js';
import { describeError, outboxErrorView } from '../../../sync/outbox/errors.js';
import { OutboxConflict } from '../../../sync/outbox/kinds.js';
import { outboxErrorSchema } from '../../../sync/protocol/outbox.js';

const ctx = { method: 'PATCH', path: '/messages/47' };
const view = (e: unknown) => outboxErrorSchema.parse(outboxErrorView(JSON.parse(JSON.stringify(describeError(e)))));

describe('outbox errors', () => {
  it("an API refusal keeps the server's sentence, code and typed details", () => {
    const e = new ZulipApiError(ctx, 400, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 'You only have permission to move the 2/5 most recent messages in this topic.', { first_message_id_allowed_to_move: 9 } as never, {});
    const v = view(e);
    expect(v).toEqual({
      kind: 'api',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      message: 'You only have permission to move the 2/5 most recent messages in this topic.',
      details: { first_message_id_allowed_to_move: 9 },
    });
    // The technical line stays in the row for bug reports.
    expect(describeError(e)['technical']).toMatch(/^PATCH \/messages\/47: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED \(HTTP 400\)/);
  });

  it('transport failures are said in words', () => {
    expect(view(new NetworkError(ctx, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })))).toMatchObject({ kind: 'network', code: null, message: 'The server could not be reached (ECONNREFUSED).' });
    expect(view(new ServerError(ctx, 502, undefined, undefined, '<html>'))).toMatchObject({ kind: 'server', message: 'The server had a problem (HTTP 502).' });
  });

  it('a conflict, and rows written before errors were structured, still read', () => {
    expect(view(new OutboxConflict('both changed', { base: 'a', ours: 'b', theirs: 'c' }))).toEqual({ kind: 'conflict', code: null, message: 'both changed', details: null });
    expect(outboxErrorView({ kind: 'api', code: 'BAD_REQUEST', message: 'PATCH /messages/4: BAD_REQUEST (HTTP 400): Editing is off' })).toEqual({ kind: 'api', code: 'BAD_REQUEST', message: 'Editing is off', details: null });
    expect(outboxErrorView(null)).toBeNull();
    expect(outboxErrorView('a string')).toBeNull();
  });
});
