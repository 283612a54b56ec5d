/** The README's example compiles and runs against the public entry point. */
import { describe, expect, it } from 'vitest';
import { ApiConnection, getMessages, isApiError, narrowTerm, updateMessage, contentSha256 } from '../../../sync/api/index.js';
import { fakeServer, ok } from './fake-transport.js';

describe('sync/api public entry', () => {
  it('exports the connection, operations, narrow builders and error helpers', async () => {
    expect(ApiConnection).toBeTypeOf('function');
    const f = fakeServer();
    f.reply(ok({ anchor: 10, found_newest: true, found_oldest: false, found_anchor: false, history_limited: false, messages: [] }));
    const page = await getMessages(f.conn, { anchor: 'newest', num_before: 50, num_after: 0, narrow: [narrowTerm.channel('design'), narrowTerm.topic('logo')] });
    expect(page.found_newest).toBe(true);
    expect(JSON.parse(f.calls[0]!.query.narrow!)).toEqual([
      { operator: 'channel', operand: 'design' },
      { operator: 'topic', operand: 'logo' },
    ]);
    f.reply({ status: 400, json: { result: 'error', msg: 'x', code: 'EXPECTATION_MISMATCH', field_name: 'prev_content_sha256' } });
    const err = await updateMessage(f.conn, { messageId: 42, content: 'new text', prev_content_sha256: contentSha256('old text') }).catch((e: unknown) => e);
    expect(isApiError(err) && err.kind === 'api' && err.code).toBe('EXPECTATION_MISMATCH');
  });
});
