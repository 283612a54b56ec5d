/** What the server logs about a failed request: never the whole URL (query strings reach 1 MiB). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGGED_URL_MAX, logUrl } from '../../server/http/server.js';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestServer({ log: { info: () => undefined, error: (m, e) => lines.push(`${m} ${String(e)}`) } });
});
afterAll(() => t.close());

describe('error log lines', () => {
  it('logUrl keeps short URLs and cuts long ones to 200 characters plus "…"', () => {
    expect(logUrl('/api/v1/users')).toBe('/api/v1/users');
    expect(logUrl(undefined)).toBe('');
    const long = `/api/v1/messages?narrow=${'x'.repeat(5000)}`;
    expect(logUrl(long)).toBe(`${long.slice(0, LOGGED_URL_MAX)}…`);
    expect(logUrl('y'.repeat(LOGGED_URL_MAX))).toBe('y'.repeat(LOGGED_URL_MAX));
  });

  it('an internal error on a request with a 900 KB query string logs one short line and answers the 500 envelope', async () => {
    const queues = t.server.state.queues;
    const original = queues.register.bind(queues);
    queues.register = () => {
      throw new Error('simulated failure');
    };
    try {
      const r = await t.as('hamlet').post(`/register?pad=${'p'.repeat(900_000)}`);
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
    } finally {
      queues.register = original;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^internal error on POST \/api\/v1\/register\?pad=p+… Error: simulated failure$/);
    expect(lines[0]!.length).toBeLessThan(300);
  });
});
