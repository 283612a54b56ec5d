/**
 * Presence and user status (Zulip's zerver/actions/presence.py and user_status.py).
 *
 * Presence is kept per user in the modern format: `active_timestamp` is the last time a client
 * reported the user `active`, `idle_timestamp` the last time any client reported them at all. Each
 * change takes the next `presence_last_update_id`, so a client asking with `last_update_id` gets
 * only newer rows. Others hear of a change (a `presence` event) when the user's visible state moves
 * (came online, active ↔ idle), as Zulip sends no event for a ping that changes nothing they show.
 * A user with `presence_enabled` off is left out of every answer and event (shown offline).
 *
 * Both are kept in memory: presence is ephemeral by nature, and a restarted reference server starts
 * with everyone offline and no statuses (docs/zulip-behaviour.md "Presence").
 */
import { emit } from '../events/emit.js';
import { badRequest } from '../http/errors.js';
import type { ServerState } from '../state.js';
import { getUserSetting } from './user-settings.js';
import { activeUserIds, getUser } from './users.js';

/** register's `server_presence_ping_interval_seconds` / `server_presence_offline_threshold_seconds`. */
export const PRESENCE_PING_SECONDS = 60;
export const PRESENCE_OFFLINE_SECONDS = 140;

interface PresenceRow {
  active_timestamp: number;
  idle_timestamp: number;
  updateId: number;
}

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

interface Store {
  readonly presence: Map<number, PresenceRow>;
  readonly status: Map<number, UserStatus>;
  lastUpdateId: number;
}

const stores = new WeakMap<ServerState, Store>();
function store(srv: ServerState): Store {
  let s = stores.get(srv);
  if (!s) stores.set(srv, (s = { presence: new Map(), status: new Map(), lastUpdateId: -1 }));
  return s;
}

const nowSeconds = (srv: ServerState) => Math.floor(srv.clock.now() / 1000);
const visible = (srv: ServerState, userId: number) => getUserSetting(srv, userId, 'presence_enabled');
type Shown = 'active' | 'idle' | 'offline';

function shown(row: PresenceRow | undefined, now: number): Shown {
  if (!row || now - row.idle_timestamp > PRESENCE_OFFLINE_SECONDS) return 'offline';
  return now - row.active_timestamp <= PRESENCE_OFFLINE_SECONDS ? 'active' : 'idle';
}

const modern = (row: PresenceRow) => ({ active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp });

/** The realm's presences in the modern format, only rows newer than `lastUpdateId`. */
export function realmPresences(srv: ServerState, lastUpdateId = -1): { presences: Record<string, { active_timestamp: number; idle_timestamp: number }>; presence_last_update_id: number } {
  const s = store(srv);
  const presences: Record<string, { active_timestamp: number; idle_timestamp: number }> = {};
  let max = lastUpdateId;
  for (const [userId, row] of s.presence) {
    if (row.updateId <= lastUpdateId || !visible(srv, userId)) continue;
    presences[String(userId)] = modern(row);
    max = Math.max(max, row.updateId);
  }
  return { presences, presence_last_update_id: max };
}

/** Zulip's legacy format (GET /realm/presence, GET /users/{id}/presence): per email, `aggregated` and per client. */
export function legacyPresence(srv: ServerState, userId: number, now = nowSeconds(srv)): Record<string, unknown> | null {
  const row = store(srv).presence.get(userId);
  if (!row || !visible(srv, userId)) return null;
  const status = now - row.active_timestamp <= PRESENCE_OFFLINE_SECONDS ? 'active' : 'idle';
  const timestamp = status === 'active' ? row.active_timestamp : row.idle_timestamp;
  return { aggregated: { client: 'website', status, timestamp }, website: { client: 'website', status, timestamp, pushable: false } };
}

export function legacyRealmPresence(srv: ServerState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const userId of store(srv).presence.keys()) {
    const u = getUser(srv, userId);
    const p = legacyPresence(srv, userId);
    if (u && p) out[u.email] = p;
  }
  return out;
}

/** POST /users/me/presence: record the report; tell others when what they show changed. */
export function updatePresence(srv: ServerState, userId: number, status: 'active' | 'idle'): void {
  const s = store(srv);
  const now = nowSeconds(srv);
  const before = s.presence.get(userId);
  const was = shown(before, now);
  const row: PresenceRow = {
    active_timestamp: status === 'active' ? now : (before?.active_timestamp ?? 0),
    idle_timestamp: now,
    updateId: ++s.lastUpdateId,
  };
  s.presence.set(userId, row);
  if (was === shown(row, now) || !visible(srv, userId)) return;
  const email = getUser(srv, userId)?.email ?? '';
  const website = legacyPresence(srv, userId, now)?.['website'];
  emit(srv, activeUserIds(srv), (q) =>
    q.options.capabilities.simplified_presence_events === true
      ? { type: 'presence', presences: { [String(userId)]: modern(row) } }
      : { type: 'presence', user_id: userId, email, server_timestamp: now, presence: { website } },
  );
}

export const STATUS_TEXT_MAX = 60;

export function userStatuses(srv: ServerState): Record<string, UserStatus> {
  return Object.fromEntries([...store(srv).status].map(([id, st]) => [String(id), st]));
}

/** POST /users/me/status: only the fields passed change; empty values clear them. */
export function updateUserStatus(srv: ServerState, userId: number, change: UserStatus): void {
  if (change.status_text !== undefined && [...change.status_text].length > STATUS_TEXT_MAX) throw badRequest(`status_text is too long (limit: ${STATUS_TEXT_MAX} characters)`);
  if (Object.values(change).every((v) => v === undefined)) throw badRequest('Client did not pass any new values.');
  const s = store(srv);
  const merged: UserStatus = { ...s.status.get(userId) };
  if (change.status_text !== undefined) merged.status_text = change.status_text.trim();
  if (change.emoji_name !== undefined) {
    merged.emoji_name = change.emoji_name;
    merged.emoji_code = change.emoji_name === '' ? '' : (change.emoji_code ?? '');
    merged.reaction_type = change.emoji_name === '' ? '' : (change.reaction_type ?? 'unicode_emoji');
  }
  const kept = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== '' && v !== undefined)) as UserStatus;
  if (Object.keys(kept).length === 0) s.status.delete(userId);
  else s.status.set(userId, kept);
  const event: Record<string, unknown> = { type: 'user_status', user_id: userId };
  if (change.status_text !== undefined) event.status_text = merged.status_text;
  if (change.emoji_name !== undefined) Object.assign(event, { emoji_name: merged.emoji_name, emoji_code: merged.emoji_code, reaction_type: merged.reaction_type });
  emit(srv, activeUserIds(srv), event as { type: string });
}
