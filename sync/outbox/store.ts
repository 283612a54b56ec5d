/**
 * The outbox table's only writer. Every change of state goes through `transition()` (states.ts)
 * and is appended to the row's `history`, so an intent is never dropped or changed silently.
 *
 * `enqueue` runs inside the caller's transaction (better-sqlite3 nests it as a savepoint) so the
 * optimistic local effect and the row commit together or not at all (docs/architecture.md rule 6).
 */
import type { LocalDb } from '../db/open.js';
import {
  allOutboxRows,
  entityHeadId,
  inFlightOutboxRows,
  insertOutboxRow,
  insertTempId,
  lastLiveOutboxRowOf,
  liveOutboxRowsOf,
  nextWakeTime,
  outboxRowById,
  pruneOutboxRows,
  repointOutboxRow,
  runnableHeadRows,
  setTempIdServerId,
  tempIdServerId,
  updateOutboxRow,
  type OutboxDbRow,
} from '../db/queries/outbox.js';
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

function fromDb(r: OutboxDbRow): OutboxRow {
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
  // Preparing costs more than running, and enqueue is on every user action's path
  // (bench/outbox.bench.ts): transaction wrappers are made once per store, statements once per
  // database (db/queries/statements.ts).
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

  /** A fresh `tmp-N` id for an object created offline. */
  newTempId(): string {
    const n = insertTempId(this.db);
    return `tmp-${n}`;
  }

  /** The server id a temporary id got, once its create landed. */
  resolvedTempId(tmp: string): string | undefined {
    if (!TEMP_ID.test(tmp)) return undefined;
    const v = tempIdServerId(this.db, Number(tmp.slice(4)));
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
    const folded = this.foldIntoFailedHead(kind, parsed.value, entityKey);
    if (folded) return folded;
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
    const id = insertOutboxRow(this.db, {
      kind: kind.kind,
      kindVersion: kind.version,
      entityKey,
      args: JSON.stringify(parsed.value.args),
      base: JSON.stringify(parsed.value.base ?? null),
      deadlineAt,
      now,
      history,
      isHead,
    });
    return { outcome: 'added', id: Number(id) };
  }

  /**
   * An intent of a kind that folds into a failed head (`foldsIntoFailed`): the refused head takes
   * the rows waiting behind it and then the new intent, in order, each by its kind's coalescing,
   * and goes back to `queued` as the user now wants it; the rows folded in are discarded. A delete
   * that annuls the head discards them all; an intent that supersedes them (`supersedesFailed`)
   * discards them and is added as the new head. Undefined (the usual path, after such discards)
   * when the head did not fail or any step would not merge.
   */
  private foldIntoFailedHead(kind: RuntimeKind, intent: { args: unknown; base: unknown }, entityKey: string): EnqueueResult | undefined {
    if (!kind.foldsIntoFailed) return undefined;
    const [head, ...later] = this.liveRows(entityKey);
    const headKind = head && this.kinds.get(head.kind, head.kindVersion);
    if (head?.state !== 'failed' || !headKind) return undefined;
    const steps: { kind: RuntimeKind; args: unknown; base: unknown }[] = [];
    for (const r of later) {
      const k = this.kinds.get(r.kind, r.kindVersion);
      const p = k?.parse(r.args, r.base);
      if (!k?.foldsIntoFailed || !p?.ok || r.state === 'sending' || r.state === 'verifying' || r.state === 'unknown') return undefined;
      steps.push({ kind: k, ...p.value });
    }
    steps.push({ kind, ...intent });
    let acc = { kind: head.kind, args: head.args, base: head.base };
    for (const [i, step] of steps.entries()) {
      const d = step.kind.coalesce(acc, step);
      if (d.action === 'append') {
        // The new intent makes every waiting row moot: they go, it is queued in their place.
        const all = [head, ...later];
        if (i !== steps.length - 1 || !all.every((r) => kind.supersedesFailed(r))) return undefined;
        for (const r of all) this.applyTo(r, 'discard', { note: { coalesced: 'superseded by a later intent', by: kind.kind, args: intent.args } });
        return undefined;
      }
      if (d.action === 'cancel') {
        if (i !== steps.length - 1) return undefined;
        for (const r of [head, ...later]) this.applyTo(r, 'discard', { note: { coalesced: 'cancelled by a later intent', by: kind.kind, args: intent.args } });
        return { outcome: 'cancelled', id: head.id };
      }
      const merged = headKind.parse(d.args, d.base);
      if (!merged.ok) throw new Error(`outbox: ${step.kind.kind} produced a merge that ${head.kind} v${head.kindVersion} rejects`);
      acc = { kind: head.kind, ...merged.value };
    }
    this.applyTo(head, 'edit', { args: acc.args, base: acc.base, nextAttemptAt: null, lastError: null, note: { coalesced: kind.kind, args: intent.args, into: 'failed' } });
    for (const r of later) this.applyTo(r, 'discard', { note: { coalesced: `folded into row ${head.id}`, by: kind.kind } });
    return { outcome: 'merged', id: head.id };
  }

  get(id: number): OutboxRow | undefined {
    const r = outboxRowById(this.db, id);
    return r && fromDb(r);
  }

  all(): OutboxRow[] {
    return allOutboxRows(this.db).map(fromDb);
  }

  /** Rows not yet done or discarded for one entity, oldest first. */
  liveRows(entityKey: string): OutboxRow[] {
    return liveOutboxRowsOf(this.db, entityKey).map(fromDb);
  }

  /** The newest live row of an entity: what a new intent may coalesce with. */
  private lastLiveRow(entityKey: string): OutboxRow | undefined {
    const r = lastLiveOutboxRowOf(this.db, entityKey);
    return r && fromDb(r);
  }

  /**
   * The oldest live row of every entity, when it may run now: queued, or retry_wait / unknown
   * whose time has come. Rows with a deadline go first (soonest first), then by age. `limit`: only
   * the first ones (the pusher asks for as many as it can start: parsing every head on every
   * completed row made draining quadratic).
   */
  runnableHeads(now: number, limit?: number): OutboxRow[] {
    return runnableHeadRows(this.db, now, limit ?? -1).map(fromDb);
  }

  /** The row if it is (still) its entity's head and may run now, as `runnableHeads` would list it. */
  runnableHead(id: number, now: number): OutboxRow | undefined {
    const r = this.get(id);
    if (!r) return undefined;
    const due = r.state === 'queued' || ((r.state === 'retry_wait' || r.state === 'unknown') && (r.nextAttemptAt ?? 0) <= now);
    if (!due) return undefined;
    const first = entityHeadId(this.db, r.entityKey);
    return first === r.id ? r : undefined;
  }

  /** When the earliest waiting head becomes runnable (null: nothing waits on time). */
  nextWakeAt(): number | null {
    const v = nextWakeTime(this.db);
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
    const written: OutboxDbRow = {
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
    updateOutboxRow(this.db, written);
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
    const stuck = inFlightOutboxRows(this.db).map(fromDb);
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
    setTempIdServerId(this.db, Number(tmp.slice(4)), String(createdId));
    for (const r of this.liveRows(row.entityKey)) {
      const kind = this.kinds.get(r.kind, r.kindVersion);
      // A row of a kind this app does not know keeps its args and key: the pusher fails it softly.
      if (!kind) continue;
      const args = kind.withTempResolved(r.args, tmp, createdId);
      repointOutboxRow(this.db, r.id, kind.entityKey(args), JSON.stringify(args));
    }
  }

  /**
   * Move a live row into the entity its kind gives `args` (an upload joins the send that names it,
   * ahead of it: docs/sync-design.md "Uploads"). Only entity and args change; the history says so.
   */
  repoint(id: number, args: unknown): OutboxRow | undefined {
    const cur = this.get(id);
    const kind = cur && this.kinds.get(cur.kind, cur.kindVersion);
    if (!cur || !kind || cur.state === 'done' || cur.state === 'discarded') return undefined;
    const parsed = kind.parse(args, cur.base);
    if (!parsed.ok) throw new Error(`outbox: bad ${cur.kind} repoint: ${parsed.problems}`);
    repointOutboxRow(this.db, id, kind.entityKey(parsed.value.args), JSON.stringify(parsed.value.args));
    return this.get(id);
  }

  /** Delete done and discarded rows older than the retention period. */
  prune(retentionMs: number = DEFAULT_RETENTION_MS): number {
    return pruneOutboxRows(this.db, this.clock.now() - retentionMs);
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
