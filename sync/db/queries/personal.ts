/**
 * Per-user state: topic visibility policies, saved snippets, navigation views (in the server's
 * order), scheduled messages and user settings.
 */
import { topicKey, type NavigationView, type SavedSnippet, type ScheduledMessage, type UserTopic } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

// --- user topics ---------------------------------------------------------------------------------

/**
 * Policy 0 (or one this client does not know) removes the row: "no policy" is the default. Rows
 * are keyed by the topic's comparison key, as the server keys them (one preference per topic
 * however it is spelled); the spelling kept is the server's latest.
 */
export function putUserTopic(db: LocalDb, t: UserTopic): void {
  const key = topicKey(t.topic_name);
  if (typeof t.visibility_policy !== 'number' || t.visibility_policy === 0) {
    cachedStatement(db, 'DELETE FROM user_topics WHERE channel_id = ? AND topic_key = ?').run(t.stream_id, key);
    return;
  }
  cachedStatement(db, 'INSERT OR REPLACE INTO user_topics (channel_id, topic_key, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?)').run(
    t.stream_id,
    key,
    t.topic_name,
    t.visibility_policy,
    t.last_updated,
  );
}

export interface StoredUserTopic {
  readonly channel_id: number;
  readonly topic: string;
  readonly visibility_policy: number;
  readonly last_updated: number;
}

export function getUserTopics(db: LocalDb): StoredUserTopic[] {
  return cachedStatement<[], StoredUserTopic>(db, 'SELECT channel_id, topic, visibility_policy, last_updated FROM user_topics ORDER BY channel_id, topic').all();
}

/** The topic's policy (0 = none); topics match by their key, as on the server. */
export function getTopicVisibility(db: LocalDb, channelId: number, topic: string): number {
  return cachedStatement<[number, string], number>(db, 'SELECT visibility_policy FROM user_topics WHERE channel_id = ? AND topic_key = ?').pluck().get(channelId, topicKey(topic)) ?? 0;
}

// --- saved snippets ------------------------------------------------------------------------------

export function putSavedSnippet(db: LocalDb, s: SavedSnippet): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO saved_snippets (id, json) VALUES (?, ?)').run(s.id, JSON.stringify(s));
}
export function deleteSavedSnippet(db: LocalDb, id: number): void {
  cachedStatement(db, 'DELETE FROM saved_snippets WHERE id = ?').run(id);
}
export function getSavedSnippets(db: LocalDb): SavedSnippet[] {
  return cachedStatement<[], string>(db, 'SELECT json FROM saved_snippets ORDER BY id').pluck().all().map((j) => JSON.parse(j) as SavedSnippet);
}

// --- navigation views ----------------------------------------------------------------------------

/** Added views go last, as the server lists them. */
export function putNavigationView(db: LocalDb, v: NavigationView, position?: number): void {
  const pos =
    position ??
    cachedStatement<[string], number>(db, 'SELECT position FROM navigation_views WHERE fragment = ?').pluck().get(v.fragment) ??
    cachedStatement<[], number>(db, 'SELECT coalesce(max(position), -1) + 1 FROM navigation_views').pluck().get() ??
    0;
  cachedStatement(db, 'INSERT OR REPLACE INTO navigation_views (fragment, position, json) VALUES (?, ?, ?)').run(v.fragment, pos, JSON.stringify(v));
}
export function deleteNavigationView(db: LocalDb, fragment: string): void {
  cachedStatement(db, 'DELETE FROM navigation_views WHERE fragment = ?').run(fragment);
}
export function getNavigationViews(db: LocalDb): NavigationView[] {
  return cachedStatement<[], string>(db, 'SELECT json FROM navigation_views ORDER BY position').pluck().all().map(
    (j) => JSON.parse(j) as NavigationView,
  );
}
export function getNavigationView(db: LocalDb, fragment: string): NavigationView | undefined {
  const j = cachedStatement<[string], string>(db, 'SELECT json FROM navigation_views WHERE fragment = ?').pluck().get(fragment);
  return j === undefined ? undefined : (JSON.parse(j) as NavigationView);
}

// --- scheduled messages --------------------------------------------------------------------------

export function putScheduledMessage(db: LocalDb, m: ScheduledMessage): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO scheduled_messages (id, json) VALUES (?, ?)').run(m.scheduled_message_id, JSON.stringify(m));
}
export function deleteScheduledMessage(db: LocalDb, id: number): void {
  cachedStatement(db, 'DELETE FROM scheduled_messages WHERE id = ?').run(id);
}
/** By delivery time, as `GET /scheduled_messages` orders them. */
export function getScheduledMessages(db: LocalDb): ScheduledMessage[] {
  return cachedStatement<[], string>(db, 'SELECT json FROM scheduled_messages').pluck().all()
    .map((j) => JSON.parse(j) as ScheduledMessage)
    .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

// --- user settings -------------------------------------------------------------------------------

export function putUserSetting(db: LocalDb, name: string, value: unknown): void {
  cachedStatement(db, 'INSERT OR REPLACE INTO user_settings (name, value) VALUES (?, ?)').run(name, JSON.stringify(value ?? null));
}
export function getUserSettings(db: LocalDb): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of cachedStatement<[], { name: string; value: string }>(db, 'SELECT name, value FROM user_settings').all()) {
    out[r.name] = JSON.parse(r.value);
  }
  return out;
}
