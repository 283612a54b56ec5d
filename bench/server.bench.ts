/**
 * Reference server on a 100,000-message demo realm (issue: reference server): GET /messages of
 * 1,000 messages with a topic narrow and with a search narrow, and POST /messages throughput.
 * Baselines in the same run: the HTTP floor (GET /server_settings, no database work) and the
 * same 1,000 rows read straight from SQLite.
 */
import { Agent, request } from 'undici';
import { startServer } from '../server/index.js';
import { measure, printTable, type Stats } from './lib.js';

export async function benchServer(opts: { messages: number }): Promise<void> {
  const t0 = Date.now();
  const server = await startServer({ demo: true, demoMessages: opts.messages, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const seedMs = Date.now() - t0;
  const agent = new Agent({ connections: 4, keepAliveTimeout: 30_000 });
  const email = 'hamlet@example.com';
  const auth = `Basic ${Buffer.from(`${email}:${server.apiKey(email)}`).toString('base64')}`;
  const db = server.state.db;
  try {
    const busiest = db
      .prepare(`SELECT c.name AS channel, m.topic AS topic, COUNT(*) AS n FROM messages m JOIN channels c ON c.id = m.channel_id
                WHERE c.invite_only = 0 GROUP BY m.channel_id, m.topic ORDER BY n DESC LIMIT 1`)
      .get() as { channel: string; topic: string; n: number };
    const word = 'castle';

    async function call(method: 'GET' | 'POST', path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
      const qs = new URLSearchParams(params).toString();
      const res = await request(`${server.url}/api/v1${path}${method === 'GET' ? `?${qs}` : ''}`, {
        method,
        dispatcher: agent,
        headers: { authorization: auth, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: method === 'POST' ? qs : undefined,
      });
      const json = (await res.body.json()) as Record<string, unknown>;
      if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json).slice(0, 200)}`);
      return json;
    }
    const fetchPage = (narrow: unknown[]) => async () => {
      const r = await call('GET', '/messages', { anchor: 'newest', num_before: '1000', num_after: '0', narrow: JSON.stringify(narrow) });
      if (!Array.isArray(r.messages) || r.messages.length === 0) throw new Error('empty page');
    };
    const topicNarrow = [{ operator: 'channel', operand: busiest.channel }, { operator: 'topic', operand: busiest.topic }];
    const searchNarrow = [{ operator: 'search', operand: word }];
    const rows: Stats[] = [];
    rows.push(await measure('HTTP floor: GET /server_settings', () => call('GET', '/server_settings', {}), { runs: 200, warmup: 20 }));
    const rawStmt = db.prepare('SELECT * FROM messages WHERE channel_id = (SELECT id FROM channels WHERE name = ?) AND topic = ? ORDER BY id DESC LIMIT 1000');
    rows.push(await measure('SQLite floor: same 1,000 rows, raw SELECT', () => rawStmt.all(busiest.channel, busiest.topic), { runs: 50, itemsPerRun: 1000 }));
    rows.push(await measure('GET /messages 1,000, topic narrow', fetchPage(topicNarrow), { runs: 30, itemsPerRun: 1000 }));
    rows.push(await measure(`GET /messages 1,000, search "${word}" (common word)`, fetchPage(searchNarrow), { runs: 30, itemsPerRun: 1000 }));
    const rare = [{ operator: 'search', operand: 'handkerchief' }];
    rows.push(await measure('GET /messages, search "handkerchief" (1 match)', fetchPage(rare), { runs: 30 }));
    rows.push(await measure('GET /messages 1,000, no narrow', fetchPage([]), { runs: 30, itemsPerRun: 1000 }));
    let n = 0;
    rows.push(
      await measure(
        'POST /messages (sequential)',
        () => call('POST', '/messages', { type: 'channel', to: busiest.channel, topic: 'bench', content: `benchmark message ${n++} about the castle` }),
        { runs: 300, warmup: 10 },
      ),
    );
    const total = db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
    printTable(`Reference server (${total.toLocaleString('en')} messages; seeded in ${(seedMs / 1000).toFixed(1)} s)`, rows, 'HTTP floor: GET /server_settings', [
      `topic narrow: #${busiest.channel} > ${busiest.topic} (${busiest.n} messages); target: 1,000-message fetch under 50 ms median`,
    ]);
  } finally {
    await agent.close();
    await server.close();
  }
}
