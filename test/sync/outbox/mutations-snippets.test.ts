/** Saved snippet kinds end to end against the reference server: create, edit, delete, coalescing, lost answers. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSavedSnippets as localSnippets } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as create from '../../../sync/outbox/mutations/saved-snippet-create.js';
import * as del from '../../../sync/outbox/mutations/saved-snippet-delete.js';
import * as edit from '../../../sync/outbox/mutations/saved-snippet-edit.js';
import { adoptCreatedSnippet } from '../../../sync/outbox/mutations/snippet-local.js';
import { kindOf, personalEnv, type Env } from './outbox-env.js';

let env: Env;
beforeEach(async () => {
  env = await personalEnv();
});
afterEach(async () => {
  await env.close();
});

async function serverSnippets(): Promise<Array<{ id: number; title: string; content: string }>> {
  const r = await env.t.as('iago').get('/saved_snippets');
  return r.json.saved_snippets as Array<{ id: number; title: string; content: string }>;
}
const enqueuedAt = () => Math.floor(env.time.now() / 1000);
const snippetPosts = /^POST \/api\/v1\/saved_snippets/;

describe('saved snippet kinds', () => {
  it('create, then edit and delete by server id, each shown locally at once', async () => {
    const changes = new ChangeCollector();
    const tmp = env.store.newTempId();
    const args = { tmp_id: tmp, title: 'greeting', content: 'héllo 🎉' };
    env.db.transaction(() => {
      env.store.enqueue(kindOf(env.store, 'create_saved_snippet'), args, { enqueued_at: enqueuedAt() });
      create.applyOptimistic(env.db, args, changes, { enqueued_at: enqueuedAt() });
    })();
    expect(localSnippets(env.db).map((s) => s.title)).toEqual(['greeting']);
    expect(changes.areas.has('saved_snippets')).toBe(true);
    await env.drain();
    const created = (await serverSnippets()).find((s) => s.title === 'greeting');
    expect(created?.content).toBe('héllo 🎉');
    const id = created?.id ?? -1;
    adoptCreatedSnippet(env.db, tmp, id);
    expect(localSnippets(env.db).map((s) => s.id)).toEqual([id]);

    env.store.enqueue(kindOf(env.store, 'edit_saved_snippet'), { saved_snippet_id: id, content: 'bye' }, null);
    edit.applyOptimistic(env.db, { saved_snippet_id: id, content: 'bye' }, changes);
    expect(localSnippets(env.db)[0]?.content).toBe('bye');
    await env.drain();
    expect((await serverSnippets()).find((s) => s.id === id)).toMatchObject({ title: 'greeting', content: 'bye' });

    env.store.enqueue(kindOf(env.store, 'delete_saved_snippet'), { saved_snippet_id: id }, null);
    del.savedSnippetDelete.local?.apply(env.db, { saved_snippet_id: id }, null, changes);
    expect(localSnippets(env.db)).toEqual([]);
    await env.drain();
    expect((await serverSnippets()).some((s) => s.id === id)).toBe(false);
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done', 'done']);
  });

  it('create-then-edit offline sends one create with the final text', async () => {
    const tmp = env.store.newTempId();
    env.store.enqueue(kindOf(env.store, 'create_saved_snippet'), { tmp_id: tmp, title: 'draft', content: 'v1' }, { enqueued_at: enqueuedAt() });
    env.store.enqueue(kindOf(env.store, 'edit_saved_snippet'), { saved_snippet_id: tmp, content: 'v2' }, null);
    env.store.enqueue(kindOf(env.store, 'edit_saved_snippet'), { saved_snippet_id: tmp, title: 'final', content: 'v3' }, null);
    await env.drain();
    expect(env.requests(snippetPosts)).toBe(1);
    expect(env.requests(/^PATCH /)).toBe(0);
    expect((await serverSnippets()).filter((s) => s.title === 'final' || s.title === 'draft')).toMatchObject([{ title: 'final', content: 'v3' }]);
  });

  it('create-then-delete offline sends nothing at all', async () => {
    const tmp = env.store.newTempId();
    const before = (await serverSnippets()).length;
    env.store.enqueue(kindOf(env.store, 'create_saved_snippet'), { tmp_id: tmp, title: 'oops', content: 'x' }, { enqueued_at: enqueuedAt() });
    env.store.enqueue(kindOf(env.store, 'edit_saved_snippet'), { saved_snippet_id: tmp, content: 'y' }, null);
    const r = env.store.enqueue(kindOf(env.store, 'delete_saved_snippet'), { saved_snippet_id: tmp }, null);
    expect(r.outcome).toBe('cancelled');
    await env.drain();
    expect(env.proxy.log).toHaveLength(0);
    expect((await serverSnippets()).length).toBe(before);
    expect(env.store.all().map((row) => row.state)).toEqual(['discarded']);
  });

  it('a create whose answer is lost is verified by listing and adopted, never created twice', async () => {
    env.proxy.rule({ method: 'POST', path: '/api/v1/saved_snippets' }, { kind: 'drop' }, 1);
    const tmp = env.store.newTempId();
    env.store.enqueue(kindOf(env.store, 'create_saved_snippet'), { tmp_id: tmp, title: 'once', content: 'only once' }, { enqueued_at: enqueuedAt() });
    // A later edit of the same snippet must reach the adopted server id.
    env.store.db.prepare("UPDATE outbox SET state = 'sending'").run();
    env.store.enqueue(kindOf(env.store, 'edit_saved_snippet'), { saved_snippet_id: tmp, content: 'edited once' }, null);
    env.store.db.prepare("UPDATE outbox SET state = 'queued' WHERE kind = 'create_saved_snippet'").run();
    await env.drain();
    expect(env.proxy.counts.drop).toBe(1);
    const mine = (await serverSnippets()).filter((s) => s.title === 'once');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.content).toBe('edited once');
    expect(env.requests(snippetPosts)).toBe(1);
    expect(env.store.all().map((r) => r.state)).toEqual(['done', 'done']);
  });

  it('verify does not adopt an identical snippet made before the intent', async () => {
    await env.t.as('iago').post('/saved_snippets', { title: 'same', content: 'same' });
    env.t.clock.advance(5_000);
    env.time.advance(5_000);
    const tmp = env.store.newTempId();
    env.store.enqueue(kindOf(env.store, 'create_saved_snippet'), { tmp_id: tmp, title: 'same', content: 'same' }, { enqueued_at: enqueuedAt() });
    const k = kindOf(env.store, 'create_saved_snippet');
    expect(await k.verify(env.conn, { tmp_id: tmp, title: 'same', content: 'same' }, { enqueued_at: enqueuedAt() })).toBe('not_applied');
    // Known to the device when the intent was made (its id): not ours, whatever the clocks say.
    const before = (await serverSnippets()).find((s) => s.title === 'same')!;
    expect(await k.verify(env.conn, { tmp_id: tmp, title: 'same', content: 'same' }, { enqueued_at: enqueuedAt() - 60, after_id: before.id })).toBe('not_applied');
  });

  it('verify adopts our snippet though the device clock runs ahead of the server’s (ids decide)', async () => {
    const known = (await serverSnippets()).reduce((m, s) => Math.max(m, s.id), 0);
    const made = await env.t.as('iago').post('/saved_snippets', { title: 'skewed', content: 'clock ahead' });
    const id = made.json['saved_snippet_id'] as number;
    const k = kindOf(env.store, 'create_saved_snippet');
    const tmp = env.store.newTempId();
    // The device says the user made it 30 s after the server stored it.
    const ahead = Math.floor(env.t.clock.now() / 1000) + 30;
    expect(await k.verify(env.conn, { tmp_id: tmp, title: 'skewed', content: 'clock ahead' }, { enqueued_at: ahead, after_id: known })).toEqual({ status: 'applied', createdId: id });
    // Without the id (a row queued by an older version), the time alone decides: not adopted.
    expect(await k.verify(env.conn, { tmp_id: tmp, title: 'skewed', content: 'clock ahead' }, { enqueued_at: ahead })).toBe('not_applied');
  });
});
