/**
 * The account session against the reference server on loopback (demo realm with extra messages):
 *  - initial sync: register + snapshot + recent history down to the default depth (5,000, in
 *    batches of 1,000), into a fresh database;
 *  - gap recovery after a lost queue: register + snapshot + messages newer than the newest cached
 *    + refresh of every cached message by `message_ids` (batches of 1,000);
 *  - baseline: the same 5,000 messages fetched with `GET /messages` (5 x 1,000) and not stored, so
 *    the ratios show what registering and storing add to the network part.
 */
import { ApiConnection, getMessages, silentLogger } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { setAccount } from '../sync/db/queries/state.js';
import { FETCH_FORMAT } from '../sync/engine/backfill.js';
import { registerAndSync } from '../sync/engine/initial-sync.js';
import { startServer } from '../server/index.js';
import { measure, printTable } from './lib.js';

export async function benchEngineSession(opts: { messages: number }): Promise<void> {
  const extra = Math.min(opts.messages, 20_000);
  const server = await startServer({ demo: true, demoMessages: extra, schedulerIntervalMs: 0, config: { rateLimit: false, longPollSeconds: 2 } });
  const email = 'hamlet@example.com';
  const conn = new ApiConnection({ realmUrl: server.url, email, apiKey: server.apiKey(email), logger: silentLogger, timeoutMs: 60_000 });
  const fresh = () => {
    const db = openLocalDb(':memory:');
    setAccount(db, { realm_url: server.url, email });
    return db;
  };
  const ctx = (db: ReturnType<typeof fresh>) => ({ conn, db, now: Date.now });
  try {
    const baseline = await measure(
      'GET /messages 5 x 1,000 (no store)',
      async () => {
        let anchor: number | 'newest' = 'newest';
        for (let i = 0; i < 5; i++) {
          const r = await getMessages(conn, { anchor, include_anchor: anchor === 'newest', num_before: 1000, num_after: 0, narrow: [], ...FETCH_FORMAT });
          const oldest = r.messages[0];
          if (!oldest || r.found_oldest) break;
          anchor = oldest.id;
        }
      },
      { runs: 5, warmup: 1, itemsPerRun: 5000 },
    );
    const initial = await measure(
      'initial sync (register + 5,000 history)',
      async () => {
        const db = fresh();
        await registerAndSync(ctx(db), 'initial');
        db.close();
      },
      { runs: 5, warmup: 1, itemsPerRun: 5000 },
    );
    const synced = fresh();
    await registerAndSync(ctx(synced), 'initial');
    const stored = synced.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const gap = await measure(
      'gap recovery (register + newer + refresh 5,000)',
      async () => {
        await registerAndSync(ctx(synced), 'expired');
      },
      { runs: 5, warmup: 1, itemsPerRun: 5000 },
    );
    synced.close();
    printTable('Engine session (reference server on loopback)', [baseline, initial, gap], baseline.name, [
      `demo realm + ${extra} generated messages; hamlet's view; backfill depth 5,000 (${stored} messages stored)`,
    ]);
  } finally {
    await conn.close();
    await server.close();
  }
}
