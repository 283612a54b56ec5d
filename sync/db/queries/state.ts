/**
 * Durable account state: the account row, the event-queue position (advanced in the same
 * transaction that applies the events) and the engine's own settings (JSON values).
 */
import type { LocalDb } from '../open.js';
import { getJsonValue, setJsonValue } from './json-values.js';
import { cachedStatement } from './statements.js';

export interface AccountRow {
  readonly realm_url: string;
  readonly email: string;
  readonly user_id: number | null;
  readonly feature_level: number | null;
  readonly zulip_version: string | null;
}

export function getAccount(db: LocalDb): AccountRow | undefined {
  return cachedStatement<[], AccountRow>(db, 'SELECT realm_url, email, user_id, feature_level, zulip_version FROM account WHERE id = 1').get();
}

/** Create or replace the account row; fields left out keep their stored value. */
export function setAccount(db: LocalDb, a: Partial<AccountRow> & Pick<AccountRow, 'realm_url' | 'email'>): void {
  const before = getAccount(db);
  cachedStatement(
    db,
    `INSERT OR REPLACE INTO account (id, realm_url, email, user_id, feature_level, zulip_version)
     VALUES (1, @realm_url, @email, @user_id, @feature_level, @zulip_version)`,
  ).run({
    realm_url: a.realm_url,
    email: a.email,
    user_id: a.user_id ?? before?.user_id ?? null,
    feature_level: a.feature_level ?? before?.feature_level ?? null,
    zulip_version: a.zulip_version ?? before?.zulip_version ?? null,
  });
}

/** What the server told us about itself (register, restart events); no-op before the account exists. */
export function noteServerVersion(db: LocalDb, v: { user_id?: number; feature_level?: number; zulip_version?: string }): void {
  cachedStatement(
    db,
    `UPDATE account SET user_id = coalesce(@user_id, user_id), feature_level = coalesce(@feature_level, feature_level),
       zulip_version = coalesce(@zulip_version, zulip_version) WHERE id = 1`,
  ).run({ user_id: v.user_id ?? null, feature_level: v.feature_level ?? null, zulip_version: v.zulip_version ?? null });
}

export interface QueuePosition {
  readonly queue_id: string;
  readonly last_event_id: number;
  /** UNIX ms when this queue was registered. */
  readonly registered_at: number;
}

export function getQueuePosition(db: LocalDb): QueuePosition | undefined {
  return cachedStatement<[], QueuePosition>(db, 'SELECT queue_id, last_event_id, registered_at FROM event_queue WHERE id = 1').get();
}

/**
 * Record the queue and the last applied event. `registered_at` is kept while the queue id stays
 * the same; a new queue takes `now` (injectable for tests).
 */
export function setQueuePosition(db: LocalDb, pos: { queue_id: string; last_event_id: number }, now: number = Date.now()): void {
  const before = getQueuePosition(db);
  const registeredAt = before && before.queue_id === pos.queue_id ? before.registered_at : now;
  cachedStatement(db, 'INSERT OR REPLACE INTO event_queue (id, queue_id, last_event_id, registered_at) VALUES (1, ?, ?, ?)').run(
    pos.queue_id,
    pos.last_event_id,
    registeredAt,
  );
}

export function getEngineSetting(db: LocalDb, name: string): unknown {
  return getJsonValue(db, 'engine_settings', name);
}

export function setEngineSetting(db: LocalDb, name: string, value: unknown): void {
  setJsonValue(db, 'engine_settings', name, value);
}
