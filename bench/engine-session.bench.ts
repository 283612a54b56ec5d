/**
 * The account session against the reference server on loopback (demo realm with extra messages):
 *  - initial sync: register + snapshot + recent history down to the default depth (5,000, in
 *    batches of 1,000), into a fresh database;
 *  - gap recovery after a lost queue: register + snapshot + messages newer than the newest cached
 *    + refresh of every cached message by `message_ids` (batches of 1,000);
 *  - baseline: the same 5,000 messages fetched with `GET /messages` (5 x 1,000) and not stored, so
 *    the ratios show what registering and storing add to the network part (target: at most 3x).
 * Run in turns, so load from elsewhere falls on all three alike.
 */
import { ApiConnection, getMessages, silentLogger } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { setAccount } from '../sync/db/queries/state.js';
import { FETCH_FORMAT } from '../sync/engine/backfill.js';
import { registerAndSync } from '../sync/engine/initial-sync.js';
import { startServer } from '../server/index.js';
import { check, interleave, printChecks } from './lib.js';

const SUITE = 'engine-session';

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
    const synced = fresh();
    await registerAndSync(ctx(synced), 'initial');
    const stored = synced.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const [baseline, initial, gap] = await interleave(
      [
        {
          name: 'GET /messages 5 x 1,000 (no store)',
          fn: async () => {
            let anchor: number | 'newest' = 'newest';
            for (let i = 0; i < 5; i++) {
              const r = await getMessages(conn, { anchor, include_anchor: anchor === 'newest', num_before: 1000, num_after: 0, narrow: [], ...FETCH_FORMAT });
              const oldest = r.messages[0];
              if (!oldest || r.found_oldest) break;
              anchor = oldest.id;
            }
          },
        },
        {
          name: 'initial sync (register + 5,000 history)',
          fn: async () => {
            const db = fresh();
            await registerAndSync(ctx(db), 'initial');
            db.close();
          },
        },
        { name: 'gap recovery (register + newer + refresh 5,000)', fn: () => registerAndSync(ctx(synced), 'expired') },
      ],
      { runs: 5, warmup: 1 },
    );
    synced.close();
    printChecks('Engine session (reference server on loopback)', [check(SUITE, initial!, baseline!, { max: 3 }), check(SUITE, gap!, baseline!, { max: 3 })], [
      `demo realm + ${extra} generated messages; hamlet's view; backfill depth 5,000 (${stored} messages stored)`,
    ]);
  } finally {
    await conn.close();
    await server.close();
  }
}
