/**
 * The reads the UI needs, as the protocol shapes them: thin wrappers over STORE's read queries
 * (sync/db/queries). Split from session.ts to keep both small; everything here is synchronous and
 * answers offline from the cache.
 */
import type { LocalDb } from '../db/open.js';
import { getChannels } from '../db/queries/channels.js';
import { getNavigationViews, getSavedSnippets, getScheduledMessages, getUserSettings } from '../db/queries/personal.js';
import { channelsWithTopics } from '../db/queries/topics.js';
import { getUsers } from '../db/queries/users.js';
import type { ChannelSummary, UserSummary } from '../protocol/commands.js';
import type { z } from 'zod';
import type { navigationViewSchema, savedSnippetSchema, scheduledMessageSchema } from '../protocol/commands.js';

export class SessionQueries {
  constructor(private readonly db: LocalDb) {}

  /** Every known channel with its cached topics and unread counts, by name. */
  channels(): ChannelSummary[] {
    const colors = new Map<number, string>();
    for (const c of getChannels(this.db)) if (c.subscription) colors.set(c.channel.stream_id, c.subscription.color);
    return channelsWithTopics(this.db).map((c) => ({
      channel_id: c.channel_id,
      name: c.name,
      is_subscribed: c.subscribed,
      is_muted: c.is_muted,
      color: colors.get(c.channel_id) ?? null,
      unread_count: c.topics.reduce((n, t) => n + t.unread_count, 0),
      topics: c.topics.map((t) => ({
        topic: t.topic,
        max_message_id: t.last_message_id,
        unread_count: t.unread_count,
        visibility_policy: t.visibility_policy,
      })),
    }));
  }

  users(): UserSummary[] {
    return getUsers(this.db).map(({ user, isActive }) => ({
      user_id: user.user_id,
      email: user.email,
      full_name: user.full_name,
      is_active: isActive,
      is_bot: user.is_bot,
      avatar_url: user.avatar_url ?? null,
    }));
  }

  savedSnippets(): Array<z.output<typeof savedSnippetSchema>> {
    return getSavedSnippets(this.db);
  }

  navigationViews(): Array<z.output<typeof navigationViewSchema>> {
    return getNavigationViews(this.db).map((v) => ({ fragment: v.fragment, is_pinned: v.is_pinned, name: v.name ?? null }));
  }

  scheduledMessages(): Array<z.output<typeof scheduledMessageSchema>> {
    return getScheduledMessages(this.db);
  }

  userSettings(): Record<string, unknown> {
    return getUserSettings(this.db);
  }
}
