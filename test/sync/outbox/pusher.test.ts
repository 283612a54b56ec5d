/** The drain loop: order per entity, concurrency across entities, error classes, pause, crash, unknown kinds. */
import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, ServerError, TimeoutError, UnauthorizedError, ZulipApiError } from '../../../sync/api/errors.js';
import { OutboxPusher } from '../../../sync/outbox/pusher.js';
import { ctx, deferred, fixture, type Fixture } from './helpers.js';

const pusherFor = (f: Fixture, concurrency = 4) => new OutboxPusher({ store: f.store, conn: f.conn, seams: f.time.seams, concurrency });
const refused = () => new NetworkError(ctx, Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));

describe('outbox pusher', () => {
  it('keeps order per entity and drains entities concurrently, up to the bound', async () => {
    const f = fixture();
    const gates = new Map<string, ReturnType<typeof deferred>>();
    let live = 0;
    let peak = 0;
    f.api.hook = async (_op, key) => {
      live++;
      peak = Math.max(peak, live);
      const g = deferred();
      gates.set(`${key}#${f.api.calls.length}`, g);
      await g.promise;
      live--;
    };
    // Raw rows: three intents per entity that must arrive in order (coalescing would merge them).
    const g = fixture();
    g.api.hook = f.api.hook;
    for (let m = 1; m <= 6; m++) for (let i = 0; i < 3; i++) g.store.db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, created_at, updated_at) VALUES ('test_edit', 1, ?, ?, ?, 'queued', 0, 0)").run(`message:${m}`, JSON.stringify({ messageId: m, content: `m${m}-${i}` }), JSON.stringify({ content: '' }));
    const p = pusherFor(g, 4);
    p.start();
    const done = p.idle();
    for (let round = 0; round < 40 && gates.size + g.api.calls.length > 0; round++) {
      await new Promise((r) => setTimeout(r, 1));
      for (const [k, d] of gates) {
        gates.delete(k);
        d.resolve();
      }
      if (g.store.all().every((r) => r.state === 'done')) break;
    }
    await done;
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
    for (let m = 1; m <= 6; m++) expect(g.api.calls.filter((c) => c === `edit message:${m}`)).toHaveLength(3);
    expect([...g.api.messages.entries()].sort()).toEqual([1, 2, 3, 4, 5, 6].map((m) => [m, `m${m}-2`]));
    await p.stop();
  });

  it('runs the rows of a serial group one at a time, in order, across entities (topic moves)', async () => {
    const f = fixture();
    let live = 0;
    let peak = 0;
    const gates: ReturnType<typeof deferred>[] = [];
    f.api.hook = async (op) => {
      if (op !== 'move') return;
      live++;
      peak = Math.max(peak, live);
      const g = deferred();
      gates.push(g);
      await g.promise;
      live--;
    };
    // A split from message 2, then a move of the rest from message 1, then an unrelated star.
    f.store.enqueue(f.kinds.move, { messageId: 2, topic: 'later' }, null);
    f.store.enqueue(f.kinds.move, { messageId: 1, topic: 'elsewhere' }, null);
    f.store.enqueue(f.kinds.star, { messageId: 9, starred: true }, null);
    const p = pusherFor(f, 4);
    p.start();
    const done = p.idle();
    for (let round = 0; round < 40 && !f.store.all().every((r) => r.state === 'done'); round++) {
      await new Promise((r) => setTimeout(r, 1));
      // The star is not held back by the moves; only one move is ever in flight.
      expect(live).toBeLessThanOrEqual(1);
      gates.shift()?.resolve();
    }
    await done;
    expect(peak).toBe(1);
    expect(f.api.moves).toEqual(['2->later', '1->elsewhere']);
    expect(f.api.stars.get(9)).toBe(true);
    expect(f.api.calls.indexOf('star star:9')).toBeLessThan(f.api.calls.indexOf('move message:1'));
    await p.stop();
  });

  it('transient failures wait with jittered backoff, Retry-After is honoured, retryNow wakes the rest', async () => {
    const f = fixture();
    const errors = [new ServerError(ctx, 503, undefined, undefined, ''), new RateLimitedError(ctx, 429, 2500, undefined, undefined), refused()];
    f.api.hook = (op, key) => {
      if (key === 'star:1' && errors.length) throw errors.shift();
    };
    f.store.enqueue(f.kinds.star, { messageId: 1, starred: true }, null);
    const p = pusherFor(f);
    p.start();
    await p.idle();
    const row = () => f.store.all()[0];
    expect(row()).toMatchObject({ state: 'retry_wait', attempts: 1, nextAttemptAt: f.time.now() + 250 }); // 0.5 * 500
    f.time.advance(250);
    await p.idle();
    expect(row()).toMatchObject({ state: 'retry_wait', attempts: 2, nextAttemptAt: f.time.now() + 2500 });
    p.retryNow(); // Retry-After is kept even when the network comes back
    await p.idle();
    expect(row()?.attempts).toBe(2);
    f.time.advance(2500);
    await p.idle();
    expect(row()).toMatchObject({ state: 'retry_wait', attempts: 3, nextAttemptAt: f.time.now() + 1000 }); // 0.5 * 2000
    p.retryNow();
    await p.idle();
    expect(row()).toMatchObject({ state: 'done', attempts: 4, lastError: null });
    await p.stop();
  });

  it('an absurd Retry-After waits at most the 60 s cap, says what the server asked, and retryNow never leaves a row past the cap', async () => {
    const f = fixture();
    let limited = true;
    f.api.hook = (_op, key) => {
      if (key === 'star:1' && limited) throw new RateLimitedError(ctx, 429, 86_400_000, undefined, undefined);
    };
    f.store.enqueue(f.kinds.star, { messageId: 1, starred: true }, null);
    const p = pusherFor(f);
    p.start();
    await p.idle();
    const row = () => f.store.all()[0]!;
    expect(row()).toMatchObject({ state: 'retry_wait', nextAttemptAt: f.time.now() + 60_000 });
    expect(row().lastError).toMatchObject({ kind: 'rate_limited', retryAfterMs: 86_400_000, waitMs: 60_000, message: expect.stringContaining('the server asked to wait 86400 s, retrying in 60 s') });
    // The timer sleeps what can be held (no 10^8 s timer that would fire at once and spin).
    expect(f.time.requested.at(-1)).toBe(60_000);
    limited = false;
    // A row left by an older version, waiting a whole day: a network-regained retryNow brings it
    // within the cap, never skipped for a day.
    f.store.db.prepare('UPDATE outbox SET next_attempt_at = ?').run(f.time.now() + 86_400_000);
    p.retryNow();
    await p.idle();
    expect(row().nextAttemptAt).toBe(f.time.now() + 60_000);
    f.time.advance(60_000);
    await p.idle();
    expect(row().state).toBe('done');
    await p.stop();
  });

  it('reports whether each request got the server’s own answer (the session learns the server is back)', async () => {
    const f = fixture();
    const errors: Record<string, Error> = {
      'star:1': refused(),
      'star:2': new TimeoutError(ctx, 5000),
      'star:3': new ServerError(ctx, 502, undefined, undefined, '', true),
      'star:4': new ZulipApiError(ctx, 400, 'BAD_REQUEST', 'no', undefined, {}),
      'star:5': new RateLimitedError(ctx, 429, 1000, undefined, undefined),
    };
    f.api.hook = (_op, key) => {
      const e = errors[key];
      delete errors[key];
      if (e) throw e;
    };
    const answers: Array<[string, boolean]> = [];
    for (const m of [1, 2, 3, 4, 5, 6]) f.store.enqueue(f.kinds.star, { messageId: m, starred: true }, null);
    const p = new OutboxPusher({ store: f.store, conn: f.conn, seams: f.time.seams, concurrency: 1, onAnswer: (reached) => answers.push([f.api.calls.at(-1) ?? '', reached]) });
    p.start();
    await p.idle();
    // The sends, in order; then the reads that verify the two that may have landed, answered.
    expect(answers.slice(0, 6)).toEqual([
      ['star star:1', false], // refused connection
      ['star star:2', false], // no answer in time
      ['star star:3', false], // a gateway's page, not the server
      ['star star:4', true], // a refusal is the server's answer
      ['star star:5', true], // so is being asked to wait
      ['star star:6', true], // and a success
    ]);
    expect(answers.slice(6).map(([, reached]) => reached)).not.toContain(false);
    await p.stop();
  });

  it('a 401 pauses the whole queue until resume(); other 4xx fail and block their entity only', async () => {
    const f = fixture();
    let authorized = false;
    f.api.hook = (_op, key) => {
      if (key === 'star:9') throw new ZulipApiError(ctx, 400, 'BAD_REQUEST', 'no', undefined, {});
      if (key !== 'star:9' && !authorized) throw new UnauthorizedError(ctx, 401, 'UNAUTHORIZED', 'bad key', undefined);
    };
    f.store.enqueue(f.kinds.star, { messageId: 9, starred: true }, null);
    f.store.db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('test_star', 1, 'star:9', '{\"messageId\":9,\"starred\":false}', 'queued', 0, 0)").run();
    const p = pusherFor(f, 1);
    p.start();
    await p.idle();
    expect(f.store.all().map((r) => r.state)).toEqual(['failed', 'queued']);
    f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'x' }, { content: '' });
    f.store.enqueue(f.kinds.edit, { messageId: 2, content: 'y' }, { content: '' });
    p.kick();
    await p.idle();
    expect(p.status).toBe('paused_unauthorized');
    const before = f.api.calls.length;
    await p.idle();
    expect(f.api.calls.length).toBe(before);
    authorized = true;
    p.resume();
    await p.idle();
    expect(p.status).toBe('running');
    expect(f.api.messages).toEqual(new Map([[1, 'x'], [2, 'y']]));
    expect(f.store.liveRows('star:9').map((r) => r.state)).toEqual(['failed', 'queued']);
    await p.stop();
  });

  it('a lost answer becomes unknown and is verified by reading, never resent when it landed', async () => {
    const f = fixture();
    let drop = true;
    f.api.hook = (op) => {
      if (op === 'edit' && drop) {
        drop = false;
        // The server applied the edit, but the answer never came back.
        f.api.messages.set(42, 'mine');
        throw new TimeoutError(ctx, 1000);
      }
    };
    f.store.enqueue(f.kinds.edit, { messageId: 42, content: 'mine' }, { content: '' });
    const p = pusherFor(f);
    p.start();
    await p.idle();
    expect(f.api.calls).toEqual(['edit message:42', 'read message:42']);
    expect(f.store.all()[0]?.state).toBe('done');
    await p.stop();
  });

  it('after a crash, rows left sending are verified on start: landed -> done, not landed -> resent', async () => {
    const f = fixture();
    const a = f.store.enqueue(f.kinds.edit, { messageId: 1, content: 'landed' }, { content: '' });
    const b = f.store.enqueue(f.kinds.edit, { messageId: 2, content: 'lost' }, { content: '' });
    f.store.apply({ id: a.id }, 'send', { attempts: 1 });
    f.store.apply({ id: b.id }, 'send', { attempts: 1 });
    f.api.messages.set(1, 'landed');
    const p = pusherFor(f);
    p.start();
    await p.idle();
    expect(f.api.calls.sort()).toEqual(['edit message:2', 'read message:1', 'read message:2']);
    expect(f.store.all().map((r) => [r.state, r.attempts])).toEqual([
      ['done', 1],
      ['done', 2],
    ]);
    await p.stop();
  });

  it('a create lands and the later rows of its temporary id go to the server id', async () => {
    const f = fixture();
    const tmp = f.store.newTempId();
    f.store.enqueue(f.kinds.create, { tmpId: tmp, title: 't', content: 'c' }, null);
    f.store.db.prepare("UPDATE outbox SET state = 'sending'").run(); // defeat coalescing for this test
    f.store.enqueue(f.kinds.editSnippet, { snippetId: tmp, content: 'c2' }, null);
    f.store.db.prepare("UPDATE outbox SET state = 'queued' WHERE kind = 'test_snippet_create'").run();
    const p = pusherFor(f);
    p.start();
    await p.idle();
    expect(f.api.calls).toEqual([`create snippet:${tmp}`, 'snippet_edit snippet:100']);
    expect(f.api.snippets.get(100)?.content).toBe('c2');
    await p.stop();
  });

  it('an unknown kind or version fails softly with a clear error; the rest drains', async () => {
    const f = fixture();
    f.store.db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('from_the_future', 3, 'x:1', '{}', 'queued', 0, 0)").run();
    f.store.db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('test_star', 1, 'star:5', '{\"bad\":1}', 'queued', 0, 0)").run();
    f.store.enqueue(f.kinds.star, { messageId: 6, starred: true }, null);
    const p = pusherFor(f);
    p.start();
    await p.idle();
    const rows = f.store.all();
    expect(rows.map((r) => r.state)).toEqual(['failed', 'failed', 'done']);
    expect(rows[0]?.lastError).toMatchObject({ kind: 'unknown_kind', message: expect.stringContaining("'from_the_future' version 3") });
    expect(rows[1]?.lastError).toMatchObject({ kind: 'bad_args' });
    await p.stop();
  });

  it('an expired deadline fails the row with its text kept, without a request', async () => {
    const f = fixture();
    f.store.enqueue(f.kinds.edit, { messageId: 3, content: 'late' }, { content: '' }, { deadlineAt: f.time.now() - 1 });
    const p = pusherFor(f);
    p.start();
    await p.idle();
    expect(f.api.calls).toEqual([]);
    expect(f.store.all()[0]).toMatchObject({ state: 'failed', args: { content: 'late' }, lastError: { kind: 'deadline_expired' } });
    await p.stop();
  });
});
