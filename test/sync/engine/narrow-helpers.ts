/** Shared helpers for the narrow tests: a local store filled from the reference server. */
import { ApiConnection, getMessages, registerQueue, type NarrowTerm } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { upsertMessages } from '../../../sync/db/queries/messages.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import type { TestServer } from '../../server/harness.js';

export function connect(t: TestServer, who: string): ApiConnection {
  const email = `${who}@example.com`;
  return new ApiConnection({ realmUrl: t.url, email, apiKey: t.server.apiKey(email), logger: { warn: () => undefined }, timeoutMs: 10_000 });
}

/** Every id of a narrow on the server, oldest first (pages of 1,000). */
export async function serverIds(conn: ApiConnection, narrow: readonly NarrowTerm[]): Promise<number[]> {
  const ids: number[] = [];
  let anchor: number | 'oldest' = 'oldest';
  for (;;) {
    const r = await getMessages(conn, { narrow, anchor, include_anchor: anchor === 'oldest', num_before: 0, num_after: 1000, apply_markdown: true, client_gravatar: false });
    ids.push(...r.messages.map((m) => m.id));
    if (r.found_newest || r.messages.length === 0) return ids;
    anchor = r.messages.at(-1)!.id;
  }
}

/** Store every message of a narrow (as the fetcher would, without its range bookkeeping). */
export async function fetchAllInto(db: LocalDb, conn: ApiConnection, narrow: readonly NarrowTerm[]): Promise<void> {
  let anchor: number | 'oldest' = 'oldest';
  for (;;) {
    const r = await getMessages(conn, {
      narrow,
      anchor,
      include_anchor: anchor === 'oldest',
      num_before: 0,
      num_after: 1000,
      apply_markdown: true,
      client_gravatar: false,
      allow_empty_topic_name: true,
    });
    upsertMessages(db, r.messages, new ChangeCollector());
    if (r.found_newest || r.messages.length === 0) return;
    anchor = r.messages.at(-1)!.id;
  }
}

/** A store with the register snapshot and every message the user can read (personal history and
 * every channel's history), as after a full sync. */
export async function seededStore(conn: ApiConnection): Promise<{ db: LocalDb; selfUserId: number }> {
  const db = openLocalDb(':memory:');
  const snap = await registerQueue(conn, { apply_markdown: true, client_gravatar: false });
  storeRegisterSnapshot(db, snap, new ChangeCollector());
  await fetchAllInto(db, conn, []);
  const channelIds = db.prepare('SELECT id FROM channels ORDER BY id').pluck().all() as number[];
  for (const id of channelIds) {
    try {
      await fetchAllInto(db, conn, [{ operator: 'channel', operand: id }]);
    } catch {
      // A channel whose history this user may not read: the server refuses or returns nothing.
    }
  }
  return { db, selfUserId: snap.user_id ?? 0 };
}

/** Ids of a narrow in the local store, oldest first. */
export function localIds(db: LocalDb, where: string, params: ReadonlyArray<string | number>): number[] {
  return db.prepare(`SELECT m.id FROM messages m WHERE ${where} ORDER BY m.id`).pluck().all(...params) as number[];
}
