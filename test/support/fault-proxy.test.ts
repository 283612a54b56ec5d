/**
 * The fault proxy between the real API client (`sync/api`) and the reference server: every fault
 * must classify to the `ApiError` kind the outbox will switch on, and "applied" faults must really
 * have been applied on the server (the whole reason the outbox verifies by reading).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiConnection, createSavedSnippet, getSavedSnippets, isApiError, type ApiError } from '../../sync/api/index.js';
import { startTestServer, type TestServer } from '../server/harness.js';
import { FaultProxy, type Outcome } from './fault-proxy.js';

let t: TestServer;
let proxy: FaultProxy;
let conn: ApiConnection;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
  conn = connect(300);
});
afterEach(async () => {
  await conn.close();
  await proxy.close();
});

function connect(timeoutMs: number): ApiConnection {
  const email = 'iago@example.com';
  return new ApiConnection({ realmUrl: proxy.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

/** Snippet titles as the server has them, read directly (not through the proxy). */
async function serverTitles(): Promise<string[]> {
  const r = await t.as('iago').get('/saved_snippets');
  const list = r.json.saved_snippets;
  if (!Array.isArray(list)) throw new Error('no saved_snippets in answer');
  return list.map((s: { title: string }) => s.title);
}

const snippets = { method: 'POST', path: '/api/v1/saved_snippets' } as const;

describe('FaultProxy against the reference server', () => {
  it('passes requests through untouched', async () => {
    const created = await createSavedSnippet(conn, { title: 'pass ✓', content: 'héllo\r\n🎉 x' });
    const listed = await getSavedSnippets(conn);
    const mine = listed.saved_snippets.find((s) => s.id === created.saved_snippet_id);
    expect(mine?.content).toBe('héllo\r\n🎉 x');
    expect(proxy.counts.pass).toBe(2);
  });

  it('reset: a network error, nothing applied', async () => {
    proxy.rule(snippets, { kind: 'reset' }, 1);
    const e = await failure(createSavedSnippet(conn, { title: 'reset-1', content: 'x' }));
    expect(e.kind).toBe('network');
    expect(e.transient).toBe(true);
    expect(await serverTitles()).not.toContain('reset-1');
    expect(proxy.counts.reset).toBe(1);
  });

  it('drop: a network error although the server applied the request', async () => {
    proxy.rule(snippets, { kind: 'drop' }, 1);
    const e = await failure(createSavedSnippet(conn, { title: 'dropped-1', content: 'x' }));
    expect(e.kind).toBe('network');
    expect(await serverTitles()).toContain('dropped-1');
    // The rule is used up: the next request passes.
    await createSavedSnippet(conn, { title: 'after-drop', content: 'y' });
    expect(proxy.counts).toMatchObject({ drop: 1, pass: 1 });
  });

  it('error500: a server error with its envelope, nothing applied', async () => {
    proxy.rule({ method: 'post' }, { kind: 'error500' }, 1);
    const e = await failure(createSavedSnippet(conn, { title: 'e500', content: 'x' }));
    expect(e.kind).toBe('server');
    if (e.kind === 'server') expect(e.httpStatus).toBe(500);
    expect(await serverTitles()).not.toContain('e500');
  });

  it('answer / truncate after the server applied: a 502 page, an HTML 200 and cut JSON, all applied', async () => {
    proxy.rule(snippets, { kind: 'answer', apply: true, status: 502, body: '<html><h1>502 Bad Gateway</h1></html>' }, 1);
    const gw = await failure(createSavedSnippet(conn, { title: 'gw-502', content: 'x' }));
    expect(gw).toMatchObject({ kind: 'server', httpStatus: 502, mayHaveApplied: true });
    proxy.rule(snippets, { kind: 'answer', apply: true, status: 200, body: '<html>hello from the portal</html>' }, 1);
    expect(await failure(createSavedSnippet(conn, { title: 'html-200', content: 'x' }))).toMatchObject({ kind: 'malformed', httpStatus: 200 });
    proxy.rule(snippets, { kind: 'truncate' }, 1);
    expect(await failure(createSavedSnippet(conn, { title: 'cut-200', content: 'x' }))).toMatchObject({ kind: 'malformed', httpStatus: 200 });
    proxy.rule(snippets, { kind: 'answer', apply: false, status: 503, body: JSON.stringify({ result: 'error', msg: 'restarting', code: 'SERVER_NOT_READY' }), headers: { 'content-type': 'application/json', 'retry-after': '1' } }, 1);
    expect(await failure(createSavedSnippet(conn, { title: 'not-ready', content: 'x' }))).toMatchObject({ kind: 'server', httpStatus: 503, mayHaveApplied: false });
    const titles = await serverTitles();
    for (const title of ['gw-502', 'html-200', 'cut-200']) expect(titles).toContain(title);
    expect(titles).not.toContain('not-ready');
    expect(proxy.counts).toMatchObject({ answer: 3, truncate: 1 });
  });

  it('rate_limit: a burst of 429s with a fractional Retry-After, then through', async () => {
    proxy.rule(snippets, { kind: 'rate_limit', retryAfterSeconds: 0.25 }, 3);
    for (let i = 0; i < 3; i++) {
      const e = await failure(createSavedSnippet(conn, { title: 'limited', content: 'x' }));
      expect(e.kind).toBe('rate_limited');
      if (e.kind === 'rate_limited') expect(e.retryAfterMs).toBe(250);
    }
    await createSavedSnippet(conn, { title: 'limited', content: 'x' });
    expect((await serverTitles()).filter((x) => x === 'limited')).toHaveLength(1);
    expect(proxy.counts.rate_limit).toBe(3);
  });

  it('stall: a timeout, applied or not as asked', async () => {
    proxy.rule(snippets, { kind: 'stall', apply: false }, 1);
    expect((await failure(createSavedSnippet(conn, { title: 'stalled', content: 'x' }))).kind).toBe('timeout');
    proxy.rule(snippets, { kind: 'stall', apply: true }, 1);
    expect((await failure(createSavedSnippet(conn, { title: 'stalled-applied', content: 'x' }))).kind).toBe('timeout');
    const titles = await serverTitles();
    expect(titles).not.toContain('stalled');
    expect(titles).toContain('stalled-applied');
  });

  it('close() releases a held stall at once, even for a client without a short deadline', async () => {
    const patient = connect(10_000);
    proxy.rule(() => true, { kind: 'stall', apply: false });
    const started = Date.now();
    const pending = failure(getSavedSnippets(patient));
    // Close only once the request is held, or this would test a refused connection instead.
    for (let i = 0; i < 100 && proxy.counts.stall === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(proxy.counts.stall).toBe(1);
    await proxy.close();
    expect((await pending).kind).toBe('network');
    expect(Date.now() - started).toBeLessThan(2_000);
    await patient.close();
  });

  it('pause() refuses connections; resume() serves again on the same URL', async () => {
    await getSavedSnippets(conn);
    const url = proxy.url;
    await proxy.pause();
    const e = await failure(getSavedSnippets(conn));
    expect(e.kind).toBe('network');
    if (e.kind === 'network') expect(e.errno).toBe('ECONNREFUSED');
    await proxy.resume();
    expect(proxy.url).toBe(url);
    await getSavedSnippets(conn);
  });

  it('a seeded plan replays the same faults and counts every request', async () => {
    const run = async (seed: number): Promise<string[]> => {
      const p = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
      const c = new ApiConnection({ realmUrl: p.url, email: conn.email, apiKey: t.server.apiKey(conn.email), logger: { warn: () => undefined }, timeoutMs: 200 });
      p.setPlan(seed, { reset: 0.1, drop: 0.1, error500: 0.1, rate_limit: 0.1, stall: 0.05 }, { burst: 2, retryAfterSeconds: 0.5 });
      const kinds: string[] = [];
      for (let i = 0; i < 40; i++) {
        try {
          await getSavedSnippets(c);
          kinds.push('ok');
        } catch (e) {
          kinds.push(isApiError(e) ? e.kind : 'other');
        }
      }
      const total = Object.values(p.counts).reduce((n, c) => n + c, 0);
      expect(total).toBe(40);
      expect(p.log.map((l) => clientKindOf(l.outcome))).toEqual(kinds);
      await c.close();
      await p.close();
      return p.log.map((l) => l.outcome);
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(a.filter((o) => o !== 'pass').length).toBeGreaterThan(5);
    // A planned 429 starts a burst: the request after it is rate limited too.
    // A planned 429 starts a burst of 2: runs of 429s come in pairs (unless cut by the end).
    const runs: number[] = [];
    a.forEach((o, i) => {
      if (o !== 'rate_limit') return;
      if (i > 0 && a[i - 1] === 'rate_limit') runs[runs.length - 1]! += 1;
      else runs.push(1);
    });
    expect(runs.length).toBeGreaterThan(0);
    if (a.at(-1) === 'rate_limit') runs.pop();
    for (const n of runs) expect(n % 2).toBe(0);
  });
});

/** What the client sees for each proxy outcome. */
function clientKindOf(outcome: Outcome): string {
  const kinds: Record<Outcome, string> = { pass: 'ok', reset: 'network', drop: 'network', error500: 'server', rate_limit: 'rate_limited', stall: 'timeout', answer: 'server', truncate: 'malformed', endless: 'malformed', gateway: 'server' };
  return kinds[outcome];
}
