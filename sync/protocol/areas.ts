/**
 * The areas of the account's store, named once. The engine reports which of them a write touched
 * (db/changes.ts `StoreArea` is this list's type); the UI re-queries what reads them (`QUERY_AREAS`,
 * and the renderer's live queries, which take only these names).
 */
export const STORE_AREAS = [
  'users',
  'channels',
  'subscriptions',
  'user_topics',
  'saved_snippets',
  'navigation_views',
  'scheduled_messages',
  'user_settings',
  'user_groups',
  'realm',
  'typing',
  /** Unread or starred state (counts), including the server's sets for messages not cached. */
  'unread',
  /** The stored recent DM conversations (register's `recent_private_conversations`). */
  'dm_conversations',
  /** A channel's stored server topic list was fetched or may have gone stale. */
  'channel_topics',
  /** The people the user muted (register's `muted_users`, with queued changes applied). */
  'muted_users',
  /** Who is active, idle or offline, and people's statuses (engine/handlers/presence.ts). */
  'presence',
  /** The composer's drafts (engine/drafts.ts). */
  'drafts',
  /** Outbox rows were added or changed state (the outbox view, counts, per-message markers). */
  'outbox',
] as const;

export type StoreArea = (typeof STORE_AREAS)[number];

/**
 * What an `areas` event may name: a store area, `messages` (messages were added or removed),
 * `accounts` (an account was opened, added or removed, or another one shown) or `organisations`
 * (an open account's unread count or connection changed, or the accounts were reordered: what the
 * organisations bar shows; nothing else re-reads on it).
 */
export const EVENT_AREAS = [...STORE_AREAS, 'messages', 'accounts', 'organisations'] as const;

export type EventArea = (typeof EVENT_AREAS)[number];
