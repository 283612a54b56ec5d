/**
 * Channels (every channel we know of) and our subscriptions (personal properties). A subscribed
 * channel has a row in both; `channels.json` is the BasicChannel part, `subscriptions.json` the
 * full Subscription object as the server last described it.
 */
import { basicChannelShape, type BasicChannel, type Subscription } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

const BASIC_KEYS = Object.keys(basicChannelShape);

/** The BasicChannel fields of a channel or subscription object (subscriptions are supersets). */
export function basicPart(c: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of BASIC_KEYS) if (c[k] !== undefined) out[k] = c[k];
  return out;
}

export function putChannel(db: LocalDb, c: BasicChannel | Subscription): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO channels (id, name, json) VALUES (?, ?, ?)').run(c.stream_id, c.name, JSON.stringify(basicPart(c)));
}

export function putSubscription(db: LocalDb, s: Subscription): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO subscriptions (channel_id, is_muted, json) VALUES (?, ?, ?)').run(
    s.stream_id,
    s.is_muted ? 1 : 0,
    JSON.stringify(s),
  );
}

export function deleteSubscription(db: LocalDb, channelId: number): boolean {
  return cachedStatement(db, 'DELETE FROM subscriptions WHERE channel_id = ?').run(channelId).changes > 0;
}

export function deleteChannel(db: LocalDb, channelId: number): void {
  cachedStatement(db, 'DELETE FROM channels WHERE id = ?').run(channelId);
  deleteSubscription(db, channelId);
}

export interface StoredChannel {
  readonly channel: BasicChannel;
  /** Null when we are not subscribed. */
  readonly subscription: Subscription | null;
}

type Row = { channel: string; subscription: string | null };
// Our own serialisations of objects zod checked on the way in.
const toStored = (r: Row): StoredChannel => ({
  channel: JSON.parse(r.channel) as BasicChannel,
  subscription: r.subscription === null ? null : (JSON.parse(r.subscription) as Subscription),
});
const SELECT = 'SELECT c.json AS channel, s.json AS subscription FROM channels c LEFT JOIN subscriptions s ON s.channel_id = c.id';

export function getChannel(db: LocalDb, channelId: number): StoredChannel | undefined {
  const r = cachedStatement<[number], Row>(db, `${SELECT} WHERE c.id = ?`).get(channelId);
  return r && toStored(r);
}

/** Every known channel, by name, with its subscription state. */
export function getChannels(db: LocalDb): StoredChannel[] {
  return cachedStatement<[], Row>(db, `${SELECT} ORDER BY c.name`).all().map(toStored);
}

export function getSubscribedChannels(db: LocalDb): StoredChannel[] {
  return cachedStatement<[], Row>(db, `${SELECT} WHERE s.channel_id IS NOT NULL ORDER BY c.name`).all().map(toStored);
}

export function isSubscribed(db: LocalDb, channelId: number): boolean {
  return cachedStatement<[number], number>(db, 'SELECT 1 FROM subscriptions WHERE channel_id = ?').pluck().get(channelId) !== undefined;
}

export function channelName(db: LocalDb, channelId: number): string | undefined {
  return cachedStatement<[number], string>(db, 'SELECT name FROM channels WHERE id = ?').pluck().get(channelId);
}

export function channelIdByName(db: LocalDb, name: string): number | undefined {
  return cachedStatement<[string], number>(db, 'SELECT id FROM channels WHERE name = ?').pluck().get(name);
}

/** Rewrite a stored JSON object (channel or subscription row) with `patch` merged in. */
export function patchChannelJson(db: LocalDb, table: 'channels' | 'subscriptions', channelId: number, patch: Record<string, unknown>): boolean {
  const key = table === 'channels' ? 'id' : 'channel_id';
  const json = cachedStatement<[number], string>(db, `SELECT json FROM ${table} WHERE ${key} = ?`).pluck().get(channelId);
  if (json === undefined) return false;
  const next = { ...(JSON.parse(json) as Record<string, unknown>), ...patch };
  cachedStatement(db, `UPDATE ${table} SET json = ? WHERE ${key} = ?`).run(JSON.stringify(next), channelId);
  if (table === 'channels' && typeof patch.name === 'string') cachedStatement(db, 'UPDATE channels SET name = ? WHERE id = ?').run(patch.name, channelId);
  if (table === 'subscriptions' && typeof patch.is_muted === 'boolean') {
    cachedStatement(db, 'UPDATE subscriptions SET is_muted = ? WHERE channel_id = ?').run(patch.is_muted ? 1 : 0, channelId);
  }
  return true;
}

/**
 * One personal setting of a subscription (a `subscription` update event, or a queued change made
 * locally). `in_home_view`, the deprecated inverse of `is_muted`, is kept in step with it.
 */
export function patchSubscriptionProperty(db: LocalDb, channelId: number, property: string, value: unknown): boolean {
  const patch: Record<string, unknown> = property === 'in_home_view' ? { in_home_view: value, is_muted: value !== true } : { [property]: value };
  if (property === 'is_muted') patch.in_home_view = value !== true;
  return patchChannelJson(db, 'subscriptions', channelId, patch);
}
