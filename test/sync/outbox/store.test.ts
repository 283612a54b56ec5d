/** The outbox store: enqueue in the caller's transaction, coalescing, temporary ids, user actions, pruning. */
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../../sync/outbox/states.js';
import { fixture } from './helpers.js';

describe('outbox store', () => {
  it("commits with the caller's optimistic effect, or not at all", () => {
    const f = fixture();
    f.db.exec('CREATE TABLE shown (id INTEGER PRIMARY KEY, content TEXT)');
    const act = (fail: boolean) =>
      f.db.transaction(() => {
        f.db.prepare('INSERT OR REPLACE INTO shown VALUES (42, ?)').run('new');
        f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'new' }, { content: 'old' });
        if (fail) throw new Error('the local effect failed');
      })();
    expect(() => act(true)).toThrow('the local effect failed');
    expect(f.store.all()).toEqual([]);
    expect(f.db.prepare('SELECT count(*) FROM shown').pluck().get()).toBe(0);
    act(false);
    expect(f.store.all()).toHaveLength(1);
  });

  it('rejects args its kind does not accept, writing nothing', () => {
    const f = fixture();
    expect(() => f.store.enqueue(f.kinds.edit, { messageId: 'x' }, { content: '' })).toThrow(/bad test_edit intent/);
    expect(f.store.all()).toEqual([]);
  });

  it('ten offline edits of one message become one row keeping the FIRST base', () => {
    const f = fixture();
    for (let i = 1; i <= 10; i++) f.store.enqueue(f.kinds.edit, { messageId: 42, content: `v${i}` }, { content: `v${i - 1}` });
    const rows = f.store.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'queued', args: { messageId: 42, content: 'v10' }, base: { content: 'v0' } });
    expect(rows[0]?.history).toHaveLength(10);
  });

  it('never coalesces into a row that is no longer queued', () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'a' }, { content: '' });
    f.store.apply({ id: a.id }, 'send', { attempts: 1 });
    f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'b' }, { content: 'a' });
    expect(f.store.all().map((r) => [r.state, r.args])).toEqual([
      ['sending', { messageId: 42, content: 'a' }],
      ['queued', { messageId: 42, content: 'b' }],
    ]);
  });

  it('folds into a row waiting out a backoff (it did not land), keeping the FIRST base', () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'a' }, { content: 'v0' });
    f.store.apply({ id: a.id }, 'send', { attempts: 1 });
    f.store.apply({ id: a.id }, 'transient', { nextAttemptAt: 10_000 });
    const b = f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'b' }, { content: 'a' });
    expect(b).toEqual({ outcome: 'merged', id: a.id });
    expect(f.store.all().map((r) => [r.state, r.args, r.base])).toEqual([['queued', { messageId: 42, content: 'b' }, { content: 'v0' }]]);
  });

  it('toggles keep the last value', () => {
    const f = fixture();
    for (const starred of [true, false, true, false]) f.store.enqueue(f.kinds.star, { messageId: 7, starred }, null);
    expect(f.store.all().map((r) => r.args)).toEqual([{ messageId: 7, starred: false }]);
  });

  it('create-then-edit of an offline snippet becomes one create; create-then-delete becomes nothing', () => {
    const f = fixture();
    const tmp = f.store.newTempId();
    expect(tmp).toMatch(/^tmp-\d+$/);
    f.store.enqueue(f.kinds.create, { tmpId: tmp, title: 'hi', content: 'one' }, null);
    f.store.enqueue(f.kinds.editSnippet, { snippetId: tmp, content: 'two' }, null);
    expect(f.store.liveRows(`snippet:${tmp}`).map((r) => [r.kind, r.args])).toEqual([['test_snippet_create', { tmpId: tmp, title: 'hi', content: 'two' }]]);
    const res = f.store.enqueue(f.kinds.del, { snippetId: tmp }, null);
    expect(res.outcome).toBe('cancelled');
    expect(f.store.liveRows(`snippet:${tmp}`)).toEqual([]);
    expect(f.store.all().map((r) => r.state)).toEqual(['discarded']);
  });

  it('when a create lands, later rows of the temporary id are rewritten to the server id', () => {
    const f = fixture();
    const tmp = f.store.newTempId();
    const c = f.store.enqueue(f.kinds.create, { tmpId: tmp, title: 't', content: 'c' }, null);
    f.store.apply({ id: c.id }, 'send', { attempts: 1 });
    f.store.enqueue(f.kinds.editSnippet, { snippetId: tmp, content: 'later' }, null);
    f.db.transaction(() => {
      f.store.apply({ id: c.id }, 'succeeded');
      f.store.landCreate(f.store.get(c.id)!, 123);
    })();
    expect(f.store.liveRows('snippet:123').map((r) => r.args)).toEqual([{ snippetId: 123, content: 'later' }]);
    // A stale temporary id from the UI after the create landed still reaches the right object.
    f.store.enqueue(f.kinds.del, { snippetId: tmp }, null);
    expect(f.store.liveRows('snippet:123').map((r) => r.kind)).toEqual(['test_snippet_edit', 'test_snippet_delete']);
    expect(f.store.resolvedTempId(tmp)).toBe('123');
  });

  it('user actions: retry and edit a failed row, discard a conflict, illegal ones throw', () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'x' }, { content: '' });
    f.store.apply({ id: a.id }, 'send', { attempts: 1 });
    f.store.apply({ id: a.id }, 'permanent', { lastError: { kind: 'api', code: 'BAD_REQUEST' } });
    expect(f.store.edit(a.id, { messageId: 1, content: 'y' })).toMatchObject({ state: 'queued', args: { content: 'y' }, base: { content: '' } });
    expect(() => f.store.edit(a.id, { messageId: 'no' })).toThrow(/bad test_edit edit/);
    f.store.apply({ id: a.id }, 'send', { attempts: 2 });
    expect(() => f.store.discard(a.id)).toThrow(IllegalTransitionError);
    f.store.apply({ id: a.id }, 'conflicted');
    expect(f.store.retry(a.id).state).toBe('queued');
    f.store.apply({ id: a.id }, 'send');
    f.store.apply({ id: a.id }, 'conflicted');
    expect(f.store.discard(a.id).state).toBe('discarded');
    expect(f.store.get(a.id)?.history.map((h) => (h as { event: string }).event)).toEqual(['enqueue', 'send', 'permanent', 'edit', 'send', 'conflicted', 'retry', 'send', 'conflicted', 'discard']);
  });

  it('prunes done and discarded rows after the retention period, nothing else', () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.star, { messageId: 1, starred: true }, null);
    const b = f.store.enqueue(f.kinds.star, { messageId: 2, starred: true }, null);
    f.store.enqueue(f.kinds.star, { messageId: 3, starred: true }, null);
    f.store.apply({ id: a.id }, 'send');
    f.store.apply({ id: a.id }, 'succeeded');
    f.store.discard(b.id);
    expect(f.store.prune(1000)).toBe(0);
    f.time.advance(1001);
    expect(f.store.prune(1000)).toBe(2);
    expect(f.store.all().map((r) => r.args)).toEqual([{ messageId: 3, starred: true }]);
  });

  it('after a crash, sending and verifying rows become unknown', () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.star, { messageId: 1, starred: true }, null);
    f.store.apply({ id: a.id }, 'send', { attempts: 1 });
    expect(f.store.recoverAfterCrash()).toBe(1);
    expect(f.store.get(a.id)?.state).toBe('unknown');
  });
});
