/**
 * The outbox table's only writer. Every change of state goes through `transition()` (states.ts)
 * and is appended to the row's `history`, so an intent is never dropped or changed silently.
 *
 * `enqueue` runs inside the caller's transaction (better-sqlite3 nests it as a savepoint) so the
 * optimistic local effect and the row commit together or not at all (docs/architecture.md rule 6).
 */
import type { Statement } from 'better-sqlite3';
import type { LocalDb } from '../db/open.js';
import type { Clock } from '../base/seams.js';
import { TEMP_ID, type KindRegistry, type RuntimeKind } from './kinds.js';
import { isOutboxState, transition, type OutboxEvent, type OutboxState } from './states.js';

export interface OutboxRow {
  readonly id: number;
  readonly kind: string;
  readonly kindVersion: number;
  readonly entityKey: string;
  readonly args: unknown;
  readonly base: unknown;
  readonly state: OutboxState;
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly deadlineAt: number | null;
  readonly lastError: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly history: readonly unknown[];
}

export type EnqueueResult = { readonly outcome: 'added' | 'merged'; readonly id: number } | { readonly outcome: 'cancelled'; readonly id: number };

export interface TransitionPatch {
  readonly attempts?: number;
  readonly nextAttemptAt?: number | null;
  readonly lastError?: unknown;
  readonly args?: unknown;
  readonly base?: unknown;
  readonly note?: Readonly<Record<string, unknown>>;
}

/** Done and discarded rows are kept this long (for the outbox view and bug reports), then pruned. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Runnable heads in the pusher's order, reading only heads (migration 0005): SQLite triggers keep
 * `is_head` on each entity's oldest live row, and the partial indexes hold only heads, so the
 * cost does not grow with the rows queued behind a head (5 or 5,000 sends queued behind a waiting
 * one cost the same; bench/outbox-heads.bench.ts). Queued heads are walked in that order along
 * `outbox_queued_heads` and the walk stops at the limit; waiting heads are read only once due,
 * from `outbox_waiting_heads`; SQLite merges the two. INDEXED BY because the planner, left alone,
 * may prefer `outbox_by_state` plus a sort, and because a lost index should fail loudly rather
 * than slowly (test/sync/outbox/heads-plan.test.ts checks the plan). A compound ORDER BY may only
 * name result columns, hence `no_deadline`. Parameters: now, limit (-1: all).
 */
export const RUNNABLE_HEADS_SQL = `
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_queued_heads
   WHERE o.state = 'queued' AND o.is_head = 1
  UNION ALL
  SELECT o.*, o.deadline_at IS NULL AS no_deadline FROM outbox o INDEXED BY outbox_waiting_heads
   WHERE o.state IN ('retry_wait', 'unknown') AND o.is_head = 1 AND coalesce(o.next_attempt_at, 0) <= ?
  ORDER BY no_deadline, deadline_at, id
  LIMIT ?`;

/** The id of an entity's head (one probe of outbox_live_by_entity). Parameter: entity key. */
export const ENTITY_HEAD_SQL = "SELECT MIN(id) FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded')";

/** The earliest due time among waiting heads: the first entry of `outbox_waiting_heads`. */
export const NEXT_WAKE_SQL = `
  SELECT coalesce(o.next_attempt_at, 0) FROM outbox o INDEXED BY outbox_waiting_heads
   WHERE o.state IN ('retry_wait', 'unknown') AND o.is_head = 1
   ORDER BY coalesce(o.next_attempt_at, 0)
   LIMIT 1`;

interface DbRow {
  id: number;
  kind: string;
  kind_version: number;
  entity_key: string;
  args: string;
  base: string;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  deadline_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  history: string;
}

function fromDb(r: DbRow): OutboxRow {
  // The CHECK constraint makes any other state impossible; this guards a hand-edited file.
  const state: OutboxState = isOutboxState(r.state) ? r.state : 'failed';
  const history: unknown = JSON.parse(r.history);
  return {
    id: r.id,
    kind: r.kind,
    kindVersion: r.kind_version,
    entityKey: r.entity_key,
    args: JSON.parse(r.args),
    base: JSON.parse(r.base),
    state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    deadlineAt: r.deadline_at,
    lastError: r.last_error === null ? null : JSON.parse(r.last_error),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    history: Array.isArray(history) ? history : [],
  };
}

export class OutboxStore {
  // Preparing a statement costs more than running it, and enqueue is on every user action's path
  // (bench/outbox.bench.ts): statements and transaction wrappers are made once per store.
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();
  private readonly enqueueTx: (kind: RuntimeKind, args: unknown, base: unknown, deadlineAt: number | null) => EnqueueResult;
  private readonly applyTx: (id: number, event: OutboxEvent, patch: TransitionPatch) => OutboxRow;

  constructor(
    readonly db: LocalDb,
    readonly kinds: KindRegistry,
    private readonly clock: Clock,
  ) {
    this.enqueueTx = db.transaction((kind: RuntimeKind, args: unknown, base: unknown, deadlineAt: number | null) => this.enqueueNow(kind, args, base, deadlineAt));
    this.applyTx = db.transaction((id: number, event: OutboxEvent, patch: TransitionPatch) => this.applyNow(id, event, patch));
  }

  private sql<P extends unknown[] = unknown[], R = unknown>(source: string): Statement<P, R> {
    const hit = this.statements.get(source);
    if (hit) return hit as Statement<P, R>;
    const made = this.db.prepare<P, R>(source);
    this.statements.set(source, made);
    return made;
  }

  /** A fresh `tmp-N` id for an object created offline. */
  newTempId(): string {
    const n = this.sql('INSERT INTO outbox_temp_ids DEFAULT VALUES').run().lastInsertRowid;
    return `tmp-${n}`;
  }

  /** The server id a temporary id got, once its create landed. */
  resolvedTempId(tmp: string): string | undefined {
    if (!TEMP_ID.test(tmp)) return undefined;
    const v: unknown = this.sql('SELECT server_id FROM outbox_temp_ids WHERE n = ?').pluck().get(Number(tmp.slice(4)));
    return typeof v === 'string' ? v : undefined;
  }

  /** Record an intent (coalescing with a still-queued one of the same entity). Throws on bad args. */
  enqueue(kind: RuntimeKind, args: unknown, base: unknown, opts: { deadlineAt?: number | null } = {}): EnqueueResult {
    // In the caller's transaction no savepoint is needed (it costs as much as the insert): the one
    // write is the last statement, so a throw leaves nothing behind.
    const deadlineAt = opts.deadlineAt ?? null;
    return this.db.inTransaction ? this.enqueueNow(kind, args, base, deadlineAt) : this.enqueueTx(kind, args, base, deadlineAt);
  }

  private enqueueNow(kind: RuntimeKind, args: unknown, base: unknown, deadlineAt: number | null): EnqueueResult {
    args = this.resolveTemps(kind, args);
    const parsed = kind.parse(args, base);
    if (!parsed.ok) throw new Error(`outbox: bad ${kind.kind} intent: ${parsed.problems}`);
    const entityKey = kind.entityKey(parsed.value.args);
    const now = this.clock.now();
    const last = this.lastLiveRow(entityKey);
    // A row waiting out a backoff did not land (the connection was never made, or the server said
    // so), so folding a new intent into it is as safe as into a queued one.
    if (last?.state === 'queued' || last?.state === 'retry_wait') {
      const decision = kind.coalesce({ kind: last.kind, args: last.args, base: last.base }, parsed.value);
      if (decision.action === 'cancel') {
        this.applyTo(last, 'discard', { note: { coalesced: 'cancelled by a later intent', by: kind.kind, args: parsed.value.args } });
        return { outcome: 'cancelled', id: last.id };
      }
      if (decision.action === 'merge') {
        const lastKind = this.kinds.get(last.kind, last.kindVersion);
        const merged = lastKind?.parse(decision.args, decision.base);
        if (!merged?.ok) throw new Error(`outbox: ${kind.kind} produced a merge that ${last.kind} v${last.kindVersion} rejects`);
        this.applyTo(last, 'edit', { ...merged.value, note: { coalesced: kind.kind, args: parsed.value.args } });
        return { outcome: 'merged', id: last.id };
      }
    }
    const history = JSON.stringify([{ at: now, event: 'enqueue', to: 'queued' }]);
    // The head mark is known here (no live row of the entity: the new row is its head), so the
    // insert trigger of migration 0005 only checks it instead of rewriting the row.
    const isHead = last === undefined ? 1 : 0;
    const id = this.sql(
      `INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, deadline_at, created_at, updated_at, history, is_head)
       VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
    ).run(kind.kind, kind.version, entityKey, JSON.stringify(parsed.value.args), JSON.stringify(parsed.value.base ?? null), deadlineAt, now, now, history, isHead).lastInsertRowid;
    return { outcome: 'added', id: Number(id) };
  }

  get(id: number): OutboxRow | undefined {
    const r = this.sql<[number], DbRow>('SELECT * FROM outbox WHERE id = ?').get(id);
    return r && fromDb(r);
  }

  all(): OutboxRow[] {
    return this.sql<[], DbRow>('SELECT * FROM outbox ORDER BY id').all().map(fromDb);
  }

  /** Rows not yet done or discarded for one entity, oldest first. */
  liveRows(entityKey: string): OutboxRow[] {
    return this.sql<[string], DbRow>("SELECT * FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded') ORDER BY id").all(entityKey).map(fromDb);
  }

  /** The newest live row of an entity: what a new intent may coalesce with. */
  private lastLiveRow(entityKey: string): OutboxRow | undefined {
    const r = this.sql<[string], DbRow>("SELECT * FROM outbox WHERE entity_key = ? AND state NOT IN ('done', 'discarded') ORDER BY id DESC LIMIT 1").get(entityKey);
    return r && fromDb(r);
  }

  /**
   * The oldest live row of every entity, when it may run now: queued, or retry_wait / unknown
   * whose time has come. Rows with a deadline go first (soonest first), then by age. `limit`: only
   * the first ones (the pusher asks for as many as it can start: parsing every head on every
   * completed row made draining quadratic).
   */
  runnableHeads(now: number, limit?: number): OutboxRow[] {
    return this.sql<[number, number], DbRow>(RUNNABLE_HEADS_SQL)
      .all(now, limit ?? -1)
      .map(fromDb);
  }

  /** The row if it is (still) its entity's head and may run now, as `runnableHeads` would list it. */
  runnableHead(id: number, now: number): OutboxRow | undefined {
    const r = this.get(id);
    if (!r) return undefined;
    const due = r.state === 'queued' || ((r.state === 'retry_wait' || r.state === 'unknown') && (r.nextAttemptAt ?? 0) <= now);
    if (!due) return undefined;
    const first: unknown = this.sql(ENTITY_HEAD_SQL).pluck().get(r.entityKey);
    return first === r.id ? r : undefined;
  }

  /** When the earliest waiting head becomes runnable (null: nothing waits on time). */
  nextWakeAt(): number | null {
    const v: unknown = this.sql(NEXT_WAKE_SQL).pluck().get();
    return typeof v === 'number' ? v : null;
  }

  /** Apply `event` to the row as it is now in the table; throws `IllegalTransitionError`. */
  apply(row: Pick<OutboxRow, 'id'>, event: OutboxEvent, patch: TransitionPatch = {}): OutboxRow {
    // As in enqueue: one write, last, so no savepoint inside a transaction.
    return this.db.inTransaction ? this.applyNow(row.id, event, patch) : this.applyTx(row.id, event, patch);
  }

  private applyNow(id: number, event: OutboxEvent, patch: TransitionPatch): OutboxRow {
    const cur = this.get(id);
    if (!cur) throw new Error(`outbox row ${id} does not exist`);
    return this.applyTo(cur, event, patch);
  }

  /** `cur` must be the row as it is in the table, read in the current transaction. */
  private applyTo(cur: OutboxRow, event: OutboxEvent, patch: TransitionPatch): OutboxRow {
    const to = transition(cur.state, event);
    const now = this.clock.now();
    const history = [...cur.history, { at: now, event, from: cur.state, to, ...(patch.note ? { note: patch.note } : {}) }];
    const written: DbRow = {
      id: cur.id,
      kind: cur.kind,
      kind_version: cur.kindVersion,
      entity_key: cur.entityKey,
      args: JSON.stringify(patch.args !== undefined ? patch.args : cur.args),
      base: JSON.stringify(patch.base !== undefined ? patch.base : cur.base),
      state: to,
      attempts: patch.attempts ?? cur.attempts,
      next_attempt_at: patch.nextAttemptAt !== undefined ? patch.nextAttemptAt : cur.nextAttemptAt,
      deadline_at: cur.deadlineAt,
      last_error: JSON.stringify(patch.lastError !== undefined ? patch.lastError : cur.lastError),
      created_at: cur.createdAt,
      updated_at: now,
      history: JSON.stringify(history),
    };
    this.sql(`UPDATE outbox SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, args = ?, base = ?, updated_at = ?, history = ? WHERE id = ?`).run(
      written.state,
      written.attempts,
      written.next_attempt_at,
      written.last_error,
      written.args,
      written.base,
      now,
      written.history,
      cur.id,
    );
    // What a re-read would return, without the read.
    return fromDb(written);
  }


  /** User: send a failed or conflicted row again (it goes back to the head of its entity's order). */
  retry(id: number): OutboxRow {
    return this.apply({ id }, 'retry', { nextAttemptAt: null });
  }

  discard(id: number): OutboxRow {
    return this.apply({ id }, 'discard');
  }

  /** User: replace the args (and optionally the base) of a queued or failed row. */
  edit(id: number, args: unknown, base?: unknown): OutboxRow {
    const cur = this.get(id);
    const kind = cur && this.kinds.get(cur.kind, cur.kindVersion);
    if (!cur || !kind) throw new Error(`outbox row ${id}: nothing editable`);
    const parsed = kind.parse(args, base === undefined ? cur.base : base);
    if (!parsed.ok) throw new Error(`outbox: bad ${cur.kind} edit: ${parsed.problems}`);
    return this.apply(cur, 'edit', { ...parsed.value, nextAttemptAt: null, note: { edited: true } });
  }

  /** After a crash nobody knows whether a `sending` row's request landed: verify each by reading. */
  recoverAfterCrash(): number {
    const stuck = this.sql<[], DbRow>("SELECT * FROM outbox WHERE state IN ('sending', 'verifying')").all().map(fromDb);
    this.db.transaction(() => {
      for (const r of stuck) this.apply(r, 'crash_recovered', { nextAttemptAt: null });
    })();
    return stuck.length;
  }

  /**
   * The create `row` landed as `createdId`: remember it and point every later row of its entity at
   * the server id (the fields their kinds declare as naming offline-created objects, nothing else,
   * and the entity key those give). Only a kind that declares it creates under a temporary id
   * lands one: a topic named `tmp-1` is a topic. Call inside the row's `succeeded`.
   */
  landCreate(row: Pick<OutboxRow, 'kind' | 'kindVersion' | 'args' | 'entityKey'>, createdId: number | string): void {
    const tmp = this.kinds.get(row.kind, row.kindVersion)?.createdTempId(row.args);
    if (tmp === undefined) return;
    this.sql('UPDATE outbox_temp_ids SET server_id = ? WHERE n = ?').run(String(createdId), Number(tmp.slice(4)));
    const update = this.sql('UPDATE outbox SET entity_key = ?, args = ? WHERE id = ?');
    for (const r of this.liveRows(row.entityKey)) {
      const kind = this.kinds.get(r.kind, r.kindVersion);
      // A row of a kind this app does not know keeps its args and key: the pusher fails it softly.
      if (!kind) continue;
      const args = kind.withTempResolved(r.args, tmp, createdId);
      update.run(kind.entityKey(args), JSON.stringify(args), r.id);
    }
  }

  /** Delete done and discarded rows older than the retention period. */
  prune(retentionMs: number = DEFAULT_RETENTION_MS): number {
    return this.sql("DELETE FROM outbox WHERE state IN ('done', 'discarded') AND updated_at < ?").run(this.clock.now() - retentionMs).changes;
  }

  /** An intent naming (in a declared field) a temporary id whose create already landed is pointed at the server id. */
  private resolveTemps(kind: RuntimeKind, args: unknown): unknown {
    for (const tmp of new Set(kind.tempIdsIn(args))) {
      const server = this.resolvedTempId(tmp);
      if (server === undefined) continue;
      args = kind.withTempResolved(args, tmp, /^\d+$/.test(server) ? Number(server) : server);
    }
    return args;
  }
}
