/**
 * The example data (eg.ts) in the account's local database, written the way the engine writes it
 * (storeRegisterSnapshot, upsertMessages), never with hand-written rows, except the outbox's rows,
 * whose states tests set directly.
 */
import type { Message, RegisterResponse } from '../../sync/api/index.js';
import { ChangeCollector } from '../../sync/db/changes.js';
import { openLocalDb, type LocalDb } from '../../sync/db/open.js';
import { upsertMessages } from '../../sync/db/queries/messages.js';
import { storeRegisterSnapshot } from '../../sync/db/queries/snapshot.js';
import { setAccount } from '../../sync/db/queries/state.js';
import type { OutboxRowState } from '../../sync/protocol/index.js';
import { registerSnapshot, selfUser } from './eg.js';

export interface LocalStoreOptions {
  /** What register answered (eg.registerSnapshot's defaults for fields left out). */
  readonly snapshot?: Partial<RegisterResponse>;
  /** Messages already cached. */
  readonly messages?: readonly Message[];
  /** Create the account row (signed in as the user) before the snapshot. */
  readonly account?: boolean;
}

/** An in-memory account database after register: the cast, subscribed to Verona and Denmark. */
export function localStore(opts: LocalStoreOptions = {}): LocalDb {
  const db = openLocalDb(':memory:');
  if (opts.account) setAccount(db, { realm_url: 'http://127.0.0.1:1', email: selfUser.email, user_id: selfUser.user_id });
  storeRegisterSnapshot(db, registerSnapshot(opts.snapshot), new ChangeCollector());
  if (opts.messages?.length) upsertMessages(db, opts.messages, new ChangeCollector());
  return db;
}

export interface OutboxRecord {
  readonly kind: string;
  readonly args: unknown;
  readonly state?: OutboxRowState;
  /** The entity the row changes (a fresh `entity:N` unless told). */
  readonly entity_key?: string;
  readonly kind_version?: number;
  readonly created_at?: number;
}

let nextEntity = 0;
/** Writes an outbox row as a store would have left it; returns its id. */
export function insertOutboxRow(db: LocalDb, row: OutboxRecord): number {
  const at = row.created_at ?? 0;
  return Number(
    db
      .prepare('INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.kind, row.kind_version ?? 1, row.entity_key ?? `entity:${++nextEntity}`, JSON.stringify(row.args), row.state ?? 'queued', at, at).lastInsertRowid,
  );
}
