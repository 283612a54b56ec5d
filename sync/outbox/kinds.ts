/**
 * How a mutation kind plugs into the outbox. A kind's name, version and `argsSchema` are a persisted
 * contract (architecture rule 7): rows written by an older app are read back by a newer one, so a
 * kind is never renamed or reshaped while rows of it may be queued; a new shape is a new version.
 *
 * The store and the pusher only see `RuntimeKind`s: the typed kind wrapped so that everything read
 * back from SQLite is parsed with its schemas first (no casts between the table and the kind).
 */
import type { z } from 'zod';
import type { ApiConnection } from '../api/core.js';

/** What the user's earlier intent (the row being coalesced into) looks like, kind-neutral. */
export interface PendingIntent {
  readonly kind: string;
  readonly args: unknown;
  readonly base: unknown;
}

/**
 * What to do when a new intent arrives for an entity whose newest live row is still `queued`:
 *   append  keep both rows (the default)
 *   merge   the queued row keeps its kind and takes these args and base (parsed with its kind's
 *           schemas); the new intent adds no row
 *   cancel  the two intents annihilate (create-then-delete): the queued row is discarded, no row added
 */
export type CoalesceDecision = { readonly action: 'append' } | { readonly action: 'merge'; readonly args: unknown; readonly base: unknown } | { readonly action: 'cancel' };

/** A successful send. `createdId`: the server id of an object created under a `tmp-N` id. */
export interface SendOutcome {
  readonly createdId?: number | string;
}

export type VerifyOutcome = 'applied' | 'not_applied' | 'unknown' | { readonly status: 'applied'; readonly createdId: number | string };

/**
 * Thrown by a kind's `send` when the server's object moved under us and the user must choose
 * (content edits with overlapping changes). `details` (texts, hashes) is kept in `last_error`.
 */
export class OutboxConflict extends Error {
  override readonly name = 'OutboxConflict';
  constructor(
    message: string,
    readonly details: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

export interface OutboxKind<A, B> {
  readonly kind: string;
  readonly version: number;
  readonly argsSchema: z.ZodType<A>;
  /** What the user saw; `z.null()` for kinds without one. */
  readonly baseSchema: z.ZodType<B>;
  /** Rows with the same key are sent strictly in order, e.g. `message:42`, `snippet:tmp-3`. */
  entityKey(args: A): string;
  /** Issue the request. Throws an `ApiError` (or `OutboxConflict`) on failure. */
  send(conn: ApiConnection, args: A, base: B): Promise<SendOutcome | void>;
  /** After a lost answer: read the server's state and say whether the earlier attempt landed. */
  verify(conn: ApiConnection, args: A, base: B): Promise<VerifyOutcome>;
  coalesce?(prev: PendingIntent, next: { readonly args: A; readonly base: B }): CoalesceDecision;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string };

/** A kind with its types erased behind parsing: what the store and pusher work with. */
export interface RuntimeKind {
  readonly kind: string;
  readonly version: number;
  parse(args: unknown, base: unknown): Parsed<{ args: unknown; base: unknown }>;
  entityKey(args: unknown): string;
  send(conn: ApiConnection, args: unknown, base: unknown): Promise<SendOutcome | void>;
  verify(conn: ApiConnection, args: unknown, base: unknown): Promise<VerifyOutcome>;
  coalesce(prev: PendingIntent, next: { readonly args: unknown; readonly base: unknown }): CoalesceDecision;
}

export function runtimeKind<A, B>(k: OutboxKind<A, B>): RuntimeKind {
  const parseBoth = (args: unknown, base: unknown): Parsed<{ args: A; base: B }> => {
    const a = k.argsSchema.safeParse(args);
    if (!a.success) return { ok: false, problems: `args: ${a.error.message}` };
    const b = k.baseSchema.safeParse(base);
    if (!b.success) return { ok: false, problems: `base: ${b.error.message}` };
    return { ok: true, value: { args: a.data, base: b.data } };
  };
  // The store always parses before calling in, so a failure here is a bug, not user data.
  const must = (args: unknown, base: unknown): { args: A; base: B } => {
    const p = parseBoth(args, base);
    if (!p.ok) throw new Error(`outbox kind ${k.kind} v${k.version}: ${p.problems}`);
    return p.value;
  };
  return {
    kind: k.kind,
    version: k.version,
    parse: parseBoth,
    entityKey: (args) => k.entityKey(k.argsSchema.parse(args)),
    send: (conn, args, base) => {
      const v = must(args, base);
      return k.send(conn, v.args, v.base);
    },
    verify: (conn, args, base) => {
      const v = must(args, base);
      return k.verify(conn, v.args, v.base);
    },
    coalesce: (prev, next) => {
      if (!k.coalesce) return { action: 'append' };
      const v = must(next.args, next.base);
      return k.coalesce(prev, v);
    },
  };
}

/** The kinds this app knows, by name and version (older versions stay registered while needed). */
export class KindRegistry {
  private readonly byKey = new Map<string, RuntimeKind>();

  constructor(kinds: readonly RuntimeKind[] = []) {
    for (const k of kinds) this.add(k);
  }

  add(k: RuntimeKind): this {
    const key = `${k.kind}@${k.version}`;
    if (this.byKey.has(key)) throw new Error(`outbox kind ${key} registered twice`);
    this.byKey.set(key, k);
    return this;
  }

  get(kind: string, version: number): RuntimeKind | undefined {
    return this.byKey.get(`${kind}@${version}`);
  }
}
