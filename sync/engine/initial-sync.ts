/**
 * Registering an event queue and bringing the local store up to it (docs/sync-design.md "Initial sync";
 * docs/zulip-behaviour.md "Register"):
 *
 *   1. `POST /register` with the capabilities sync/api declares by default and the event types the
 *      handlers understand (fetch keys passed separately: several differ from the event names).
 *   2. ONE transaction: the snapshot (STORE's `storeRegisterSnapshot`), the new queue position, and
 *      a durable "backfill pending" marker. When messages were already cached, the event stream has
 *      a gap from the newest cached id on: the narrow ranges are clipped (`markStreamGap`).
 *   3. The pending backfill: recent history on a first sync, or the gap after a lost queue. Only when
 *      it completes is the marker cleared and the stream marked resumed (`markStreamResumed`). A
 *      crash in between leaves the marker, so the next start (resuming the stored queue) finishes
 *      the backfill instead of silently skipping it.
 */
import { registerQueue } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { newestStoredMessageId } from '../db/queries/messages.js';
import { deleteAllRanges } from '../db/queries/narrow-ranges.js';
import { invalidateAllServerTopics } from '../db/queries/server-topics.js';
import { storeRegisterSnapshot } from '../db/queries/snapshot.js';
import { getAccount, getEngineSetting, setEngineSetting, setQueuePosition } from '../db/queries/state.js';
import { backfillGap, backfillHistory, type BackfillContext } from './backfill.js';
import { ChangeCollector } from '../db/changes.js';
import { markStreamGap, markStreamResumed } from './narrow/ranges.js';
import type { QueuePosition, RegisterReason } from './poller.js';

/** Event types the handlers apply (heartbeat and restart are always delivered). */
export const EVENT_TYPES = [
  'message',
  'update_message',
  'delete_message',
  'update_message_flags',
  'reaction',
  'submessage',
  'typing',
  'typing_edit_message',
  'user_topic',
  'saved_snippets',
  'navigation_view',
  'scheduled_messages',
  'user_settings',
  'subscription',
  'stream',
  'user_group',
  'realm_user',
  'realm',
  'realm_emoji',
  'muted_users',
  'presence',
  'user_status',
  'restart',
] as const;

/** Initial state to fetch (the register fetch keys: docs/zulip-behaviour.md "Fetch keys and event names"). */
export const FETCH_EVENT_TYPES = [
  'message',
  'update_message_flags',
  'realm',
  'realm_emoji',
  'realm_user',
  'subscription',
  'user_topic',
  'saved_snippets',
  'navigation_views',
  'scheduled_messages',
  'user_settings',
  'realm_user_groups',
  'starred_messages',
  'recent_private_conversations',
  'muted_users',
  'presence',
  'user_status',
] as const;

const PENDING = 'sync.pending_backfill';
type Pending = 'history' | 'gap';

export interface SyncContext extends BackfillContext {
  readonly now: () => number;
}

/** Register, store the snapshot and the position, then run the backfill the reason requires. */
export async function registerAndSync(ctx: SyncContext, reason: RegisterReason): Promise<QueuePosition> {
  const { conn, db } = ctx;
  ctx.onProgress?.({ phase: 'register', done: 0, total: null });
  const newestBefore = newestStoredMessageId(db);
  const snap = await registerQueue(
    conn,
    {
      event_types: EVENT_TYPES,
      fetch_event_types: FETCH_EVENT_TYPES,
      // Message events must carry the same rendering as GET /messages (apply_markdown=true,
      // client_gravatar=false), so an event-delivered message equals a fetched one.
      apply_markdown: true,
      client_gravatar: false,
      // Presences by user id in the modern format (engine/presence.ts).
      slim_presence: true,
    },
    { signal: ctx.signal },
  );
  if (snap.queue_id === null) throw new Error('the server gave no event queue (not authenticated?)');
  const pos = { queue_id: snap.queue_id, last_event_id: snap.last_event_id };
  // A first sync (nothing cached) has no gap: the queue exists before the history is fetched, so
  // nothing can be missed. Otherwise everything after the newest cached message is suspect.
  const pending: Pending = reason === 'initial' && newestBefore === 0 ? 'history' : 'gap';
  const changes = new ChangeCollector();
  db.transaction(() => {
    storeRegisterSnapshot(db, snap, changes);
    if (pending === 'gap') {
      markStreamGap(db, { throughId: newestBefore });
      // Topics may have moved or emptied while no event reached us.
      invalidateAllServerTopics(db);
    }
    else markStreamResumed(db);
    setQueuePosition(db, pos, ctx.now());
    setEngineSetting(db, PENDING, pending);
  })();
  if (!changes.empty) ctx.onChanges?.(changes.freeze());
  await runPendingBackfill(ctx);
  return pos;
}

export function hasPendingBackfill(db: LocalDb): boolean {
  return getEngineSetting(db, PENDING) !== undefined;
}

/** Finish a backfill a register started (now, or before a crash). No-op when none is pending. */
export async function runPendingBackfill(ctx: BackfillContext): Promise<void> {
  const pending = getEngineSetting(ctx.db, PENDING);
  if (pending === 'history') await backfillHistory(ctx, undefined, selfUserId(ctx.db));
  else if (pending === 'gap') await backfillGap(ctx);
  else return;
  ctx.db.transaction(() => {
    // Clipping at the newest cached id (markStreamGap) is not enough once we are back: during the
    // gap, messages we never cached (older ids, e.g. moved in from a channel we are not subscribed
    // to) may have entered any narrow below that point. The backfill refreshed what we had; nothing
    // vouches for what we never had, so every narrow is re-proved by its next (online) read. Until
    // then (offline, backfill pending) the clipped ranges stand: the best the cache can say. Found
    // by the convergence test; a finer rule belongs in narrow/ranges.ts.
    if (pending === 'gap') deleteAllRanges(ctx.db);
    markStreamResumed(ctx.db);
    setEngineSetting(ctx.db, PENDING, undefined);
  })();
}

function selfUserId(db: LocalDb): number | undefined {
  return getAccount(db)?.user_id ?? undefined;
}
