/**
 * How a mutation kind plugs into the outbox. A kind's name, version and `argsSchema` are a persisted
 * contract (docs/architecture.md rule 7): rows written by an older app are read back by a newer one, so a
 * kind is never renamed or reshaped while rows of it may be queued; a new shape is a new version.
 *
 * The store and the pusher only see `RuntimeKind`s: the typed kind wrapped so that everything read
 * back from SQLite is parsed with its schemas first (no casts between the table and the kind).
 */
import type * as z from 'zod';
import type { ApiConnection } from '../api/core.js';
import type { LocalDb } from '../db/open.js';
import type { ChangeCollector, StoreArea } from '../db/changes.js';
import type { OutboxDescription } from '../protocol/outbox.js';
import { DEFAULT_LIMITS, type ServerLimits } from './normalize.js';

/** A `tmp-N` id handed out by `OutboxStore.newTempId()` for an object created offline. */
export const TEMP_ID = /^tmp-\d+$/;
export const isTempId = (v: unknown): v is string => typeof v === 'string' && TEMP_ID.test(v);

/** What the session offers a kind's `send` and `verify` beyond the connection. */
export interface KindContext {
  /** The session's registered event queue, if any (a send's local echo event goes there). */
  queueId(): string | undefined;
  /** Server ids that other done send rows of a conversation landed as (not ours to adopt). */
  claimed(entityKey: string, localId: string): ReadonlySet<number>;
  /** The realm's limits, for comparing what we sent with what the server stored (normalize.ts). */
  limits(): ServerLimits;
  /** Queued files and what landed uploads became (mutations/upload-file.ts). */
  readonly uploads?: UploadContext;
}

/** What `upload_file` and a send naming uploads need from the session. */
export interface UploadContext {
  /** The bytes of a queued file's copy in the account's data directory. */
  read(fileId: string): Promise<Buffer>;
  /** The server URL (`/user_uploads/…`) the upload made under `tmp` landed as, if it did. */
  urlOf(tmp: string): string | undefined;
  /** Whether the row creating `tmp` was discarded (its file will never be uploaded). */
  discarded(tmp: string): boolean;
  /** Upload URLs other upload rows already landed as (not ours to adopt when verifying). */
  landedUrls(): ReadonlySet<string>;
  /** The upload landed: keep the bytes in the upload cache for reading offline. */
  keep(url: string, mimeType: string, bytes: Buffer): void;
  /** How far an upload's request body went (by its local `upload_id`), while it is being sent. */
  progress?(uploadId: number, sent: number, total: number): void;
}

/** For stores and pushers without a session (tests, benches): no queue, nothing claimed, Zulip's default limits. */
export const NO_CONTEXT: KindContext = { queueId: () => undefined, claimed: () => new Set(), limits: () => DEFAULT_LIMITS };

/**
 * A kind's optimistic effect on the local cache: run in the enqueue transaction, and again
 * whenever server changes may have overwritten it (idempotent). Undo is a re-read of what
 * `messageIds` and `refetch` name, not an inverse (outbox-local.ts).
 */
export interface LocalSpec<A, B> {
  apply(db: LocalDb, args: A, base: B, changes: ChangeCollector): void;
  /** The cached messages carrying the row's marker, and whose server changes re-apply it. */
  messageIds?(args: A): number[];
  /**
   * The row names many messages under one entity key (not `message:<id>`): a server change of any
   * cached message is checked against `messageIds` to see whether the row must be re-applied.
   */
  readonly overManyMessages?: boolean;
  /** Store areas whose server changes may have overwritten the effect. */
  readonly areas?: readonly StoreArea[];
  /** Register `fetch_event_types` that read the server's state back on undo (empty: message kinds). */
  readonly refetch?: readonly string[];
  /** Messages to re-read on undo beyond `messageIds` (a move took the rest of its topic along). */
  undoMessageIds?(db: LocalDb, args: A): number[];
}

/** Names from the local store, for a row's description (undefined: not known on this device). */
export interface Names {
  channel(id: number): string | undefined;
  user(id: number): string | undefined;
  group(id: number): string | undefined;
}

/** An intent the kind refuses (bad arguments, unknown kind, nothing to change): nothing was written. */
export class OutboxIntentError extends Error {
  override readonly name = 'OutboxIntentError';
}

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

/**
 * Everything about one queued kind, declared in its own module (sync/outbox/mutations/) and listed
 * once in registry.ts: its argument schema, entity key, optimistic local effect, request,
 * verify-by-reading, landing (created ids) and undo (a re-read of what `local` names).
 */
export interface OutboxKind<A, B, K extends string = string> {
  /** The API operation's name (see the table in registry.ts), persisted in every row. */
  readonly kind: K;
  readonly version: number;
  readonly argsSchema: z.ZodType<A>;
  /** What the user saw; `z.null()` for kinds without one. */
  readonly baseSchema: z.ZodType<B>;
  /** Rows with the same key are sent strictly in order, e.g. `message:42`, `snippet:tmp-3`. */
  entityKey(args: A): string;
  /**
   * Rows of kinds naming the same group run one at a time, in the pusher's order, whatever their
   * entity: a topic move reaches messages beyond its own entity, so two queued moves (a split from
   * one message, then a move of the rest from another) must reach the server in the user's order.
   */
  readonly serialGroup?: string;
  /**
   * The top-level argument fields that may name an object created offline (`tmp-N` until its
   * create lands). Only these are ever rewritten to the server id: a text that happens to read
   * `tmp-1` is the user's text.
   */
  readonly tempIdFields?: readonly (keyof A & string)[];
  /** For a create made offline: the field holding the `tmp-N` id it creates the object under. */
  readonly createsTempIdIn?: keyof A & string;
  /** Issue the request. Throws an `ApiError` (or `OutboxConflict`) on failure. */
  send(conn: ApiConnection, args: A, base: B, ctx: KindContext): Promise<SendOutcome | void>;
  /** After a lost answer: read the server's state and say whether the earlier attempt landed. */
  verify(conn: ApiConnection, args: A, base: B, ctx: KindContext): Promise<VerifyOutcome>;
  coalesce?(prev: PendingIntent, next: { readonly args: A; readonly base: B }): CoalesceDecision;
  /**
   * A new intent of this kind may also coalesce into its entity's head when that head `failed`
   * (docs/sync-design.md "Coalescing"): the refused row is what the new intent changes, so it is
   * sent again as changed instead of holding the new intent back. Only for kinds whose merge is
   * the whole of what the user now wants (a scheduled message's edit, send now, delete).
   */
  readonly foldsIntoFailed?: boolean;
  /**
   * With `foldsIntoFailed`: the failed head (and the rows behind it) that a new intent of this kind
   * does not merge with but makes moot, because the new intent carries what they wanted (send now
   * takes a scheduled message's text as the user sees it, a refused edit included). They are
   * discarded and the new intent queued in their place.
   */
  supersedesFailed?(prev: PendingIntent): boolean;
  /** The optimistic effect on the local cache (none: the change shows once the server's event arrives). */
  readonly local?: LocalSpec<A, B>;
  /** The create landed as `createdId` (inside the pusher's `succeeded` transaction): local copies follow it. */
  landed?(db: LocalDb, args: A, createdId: number | string, changes: ChangeCollector): void;
  /** What the row changes in words (the outbox panel shows them), and where that is. */
  describe(args: A, names: Names): OutboxDescription;
}

/** A kind's local effect with its types erased: rows whose args no longer parse are skipped. */
export interface LocalEffect {
  readonly kind: string;
  apply(db: LocalDb, args: unknown, base: unknown, changes: ChangeCollector): void;
  messageIds(args: unknown): number[];
  undoMessageIds(db: LocalDb, args: unknown): number[];
  readonly overManyMessages: boolean;
  readonly areas: readonly StoreArea[];
  readonly refetch: readonly string[];
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string };

/** A kind with its types erased behind parsing: what the store and pusher work with. */
export interface RuntimeKind {
  readonly kind: string;
  readonly version: number;
  parse(args: unknown, base: unknown): Parsed<{ args: unknown; base: unknown }>;
  entityKey(args: unknown): string;
  readonly serialGroup: string | undefined;
  send(conn: ApiConnection, args: unknown, base: unknown, ctx?: KindContext): Promise<SendOutcome | void>;
  verify(conn: ApiConnection, args: unknown, base: unknown, ctx?: KindContext): Promise<VerifyOutcome>;
  coalesce(prev: PendingIntent, next: { readonly args: unknown; readonly base: unknown }): CoalesceDecision;
  readonly foldsIntoFailed: boolean;
  supersedesFailed(prev: PendingIntent): boolean;
  /** The `tmp-N` id a create's args make the object under (undefined: not a create). */
  createdTempId(args: unknown): string | undefined;
  /** The temporary ids the args name in their declared fields. */
  tempIdsIn(args: unknown): string[];
  /** The args with every declared field equal to `tmp` set to `id` (other fields untouched). */
  withTempResolved(args: unknown, tmp: string, id: number | string): unknown;
  readonly local: LocalEffect | undefined;
  landed(db: LocalDb, args: unknown, createdId: number | string, changes: ChangeCollector): void;
  /** The row in words; undefined when its args no longer parse. */
  describe(args: unknown, names: Names): OutboxDescription | undefined;
}

function localEffect<A, B>(k: OutboxKind<A, B>): LocalEffect | undefined {
  const s = k.local;
  if (!s) return undefined;
  const args = (v: unknown): A | undefined => {
    const a = k.argsSchema.safeParse(v);
    return a.success ? a.data : undefined;
  };
  return {
    kind: k.kind,
    apply(db, rawArgs, rawBase, changes) {
      const a = args(rawArgs);
      const b = k.baseSchema.safeParse(rawBase);
      if (a !== undefined && b.success) s.apply(db, a, b.data, changes);
    },
    messageIds(rawArgs) {
      const a = args(rawArgs);
      return a !== undefined && s.messageIds ? s.messageIds(a) : [];
    },
    undoMessageIds(db, rawArgs) {
      const a = args(rawArgs);
      return a !== undefined && s.undoMessageIds ? s.undoMessageIds(db, a) : [];
    },
    overManyMessages: s.overManyMessages ?? false,
    areas: s.areas ?? [],
    refetch: s.refetch ?? [],
  };
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
    serialGroup: k.serialGroup,
    send: (conn, args, base, ctx = NO_CONTEXT) => {
      const v = must(args, base);
      return k.send(conn, v.args, v.base, ctx);
    },
    verify: (conn, args, base, ctx = NO_CONTEXT) => {
      const v = must(args, base);
      return k.verify(conn, v.args, v.base, ctx);
    },
    createdTempId(args) {
      if (k.createsTempIdIn === undefined || typeof args !== 'object' || args === null) return undefined;
      const v = (args as Record<string, unknown>)[k.createsTempIdIn];
      return isTempId(v) ? v : undefined;
    },
    tempIdsIn(args) {
      if (typeof args !== 'object' || args === null) return [];
      const rec = args as Record<string, unknown>;
      return (k.tempIdFields ?? []).map((f) => rec[f]).filter(isTempId);
    },
    withTempResolved(args, tmp, id) {
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
      const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      for (const f of k.tempIdFields ?? []) if (out[f] === tmp) out[f] = id;
      return out;
    },
    local: localEffect(k),
    landed(db, args, createdId, changes) {
      if (!k.landed) return;
      const a = k.argsSchema.safeParse(args);
      if (a.success) k.landed(db, a.data, createdId, changes);
    },
    describe(args, names) {
      const a = k.argsSchema.safeParse(args);
      return a.success ? k.describe(a.data, names) : undefined;
    },
    coalesce: (prev, next) => {
      if (!k.coalesce) return { action: 'append' };
      const v = must(next.args, next.base);
      return k.coalesce(prev, v);
    },
    foldsIntoFailed: k.foldsIntoFailed ?? false,
    supersedesFailed: (prev) => k.supersedesFailed?.(prev) ?? false,
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
