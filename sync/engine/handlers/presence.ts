/**
 * Presences and user statuses (docs/sync-design.md "Presence"): register's `presences` (modern
 * format, by user id), `presence_last_update_id` and `user_status` are kept as realm values; the
 * `presence` and `user_status` events and the answers to the engine's own presence pings merge
 * into them. What a person shows (active, idle, offline) is computed when asked, against the
 * engine's clock and the server's `server_presence_offline_threshold_seconds`, as Zulip web does.
 */
import * as z from 'zod';
import type { EventOf, ModernPresence } from '../../api/index.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { LocalDb } from '../../db/open.js';
import { getRealmValue, setRealmValue } from '../../db/queries/realm.js';
import type { UserPresence } from '../../protocol/commands.js';
import type { HandlerContext } from './types.js';

export const PRESENCES_KEY = 'presences';
export const PRESENCE_LAST_UPDATE_ID_KEY = 'presence_last_update_id';
export const USER_STATUS_KEY = 'user_status';
/** Zulip's defaults of `server_presence_offline_threshold_seconds` and `..._ping_interval_seconds`. */
export const DEFAULT_OFFLINE_THRESHOLD_S = 140;
export const DEFAULT_PING_INTERVAL_S = 60;

const stamps = z.record(z.string(), z.object({ active_timestamp: z.number().optional(), idle_timestamp: z.number().optional() }).loose());
const statuses = z.record(z.string(), z.record(z.string(), z.unknown()));

function stored<T>(db: LocalDb, key: string, schema: z.ZodType<T>, fallback: T): T {
  const parsed = schema.safeParse(getRealmValue(db, key));
  return parsed.success ? parsed.data : fallback;
}

export function presenceLastUpdateId(db: LocalDb): number {
  const v = getRealmValue(db, PRESENCE_LAST_UPDATE_ID_KEY);
  return typeof v === 'number' && Number.isInteger(v) ? v : -1;
}

/** Merge newer presences (later timestamps win: a late answer never turns someone back). */
export function mergePresences(db: LocalDb, rows: Readonly<Record<string, ModernPresence>>, lastUpdateId: number | undefined, changes: ChangeCollector): void {
  const all = stored(db, PRESENCES_KEY, stamps, {});
  for (const [id, p] of Object.entries(rows)) {
    const had = all[id];
    all[id] = {
      active_timestamp: Math.max(had?.active_timestamp ?? 0, p.active_timestamp ?? 0),
      idle_timestamp: Math.max(had?.idle_timestamp ?? 0, p.idle_timestamp ?? 0),
    };
  }
  setRealmValue(db, PRESENCES_KEY, all);
  if (lastUpdateId !== undefined && lastUpdateId > presenceLastUpdateId(db)) setRealmValue(db, PRESENCE_LAST_UPDATE_ID_KEY, lastUpdateId);
  changes.touched('presence');
}

export function onPresence(db: LocalDb, e: EventOf<'presence'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  if (e.presences) return mergePresences(db, e.presences, undefined, changes);
  // The legacy per-client format: the newest active report and the newest report of any kind.
  if (e.user_id === undefined || !e.presence) return;
  const reports = Object.values(e.presence);
  const newest = (rs: typeof reports) => Math.max(0, ...rs.map((r) => r.timestamp));
  mergePresences(db, { [String(e.user_id)]: { active_timestamp: newest(reports.filter((r) => r.status === 'active')), idle_timestamp: newest(reports) } }, undefined, changes);
}

export function onUserStatus(db: LocalDb, e: EventOf<'user_status'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  const all = stored(db, USER_STATUS_KEY, statuses, {});
  const { type: _type, id: _id, user_id, ...fields } = e;
  const merged: Record<string, unknown> = { ...all[String(user_id)], ...fields };
  for (const [k, v] of Object.entries(merged)) if (v === '' || v === undefined) delete merged[k];
  if (Object.keys(merged).length === 0) delete all[String(user_id)];
  else all[String(user_id)] = merged;
  setRealmValue(db, USER_STATUS_KEY, all);
  changes.touched('presence');
}

export function realmSeconds(db: LocalDb, name: string, fallback: number): number {
  const v = getRealmValue(db, name);
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Everyone with a known presence or status: active when a client reported them active within the
 * offline threshold, idle when one reported at all within it, else offline (Zulip web's
 * presence.ts). `presence_enabled` off on the server leaves the user out, so they show offline.
 */
export function presenceView(db: LocalDb, nowMs: number): UserPresence[] {
  const threshold = realmSeconds(db, 'server_presence_offline_threshold_seconds', DEFAULT_OFFLINE_THRESHOLD_S);
  const now = nowMs / 1000;
  const all = stored(db, PRESENCES_KEY, stamps, {});
  const st = stored(db, USER_STATUS_KEY, statuses, {});
  const ids = new Set([...Object.keys(all), ...Object.keys(st)].filter((id) => /^\d+$/.test(id)));
  return [...ids]
    .map(Number)
    .sort((a, b) => a - b)
    .map((id) => {
      const p = all[String(id)];
      const s = st[String(id)] ?? {};
      const presence = p && now - (p.active_timestamp ?? 0) <= threshold ? 'active' : p && now - (p.idle_timestamp ?? 0) <= threshold ? 'idle' : 'offline';
      return { user_id: id, presence, status_text: text(s['status_text']), emoji_name: text(s['emoji_name']), emoji_code: text(s['emoji_code']), reaction_type: text(s['reaction_type']) };
    });
}
