/**
 * The reads the UI needs, as the protocol shapes them: thin wrappers over STORE's read queries
 * (sync/db/queries). Split from session.ts to keep both small. Every read is synchronous and
 * answers offline from what is stored; the one that has a server side (a channel's complete topic
 * list) starts its fetch in the background when online and announces the answer as the
 * `channel_topics` area.
 */
import { getStreamTopics, isApiError, realmEmoji, type ApiConnection } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { getChannel, getChannels } from '../db/queries/channels.js';
import { getUserGroups } from '../db/queries/groups.js';
import { getRealmValue } from '../db/queries/realm.js';
import { getNavigationViews, getSavedSnippets, getScheduledMessages, getUserSettings } from '../db/queries/personal.js';
import { dmConversationRows } from '../db/queries/recent-dms.js';
import { storeServerTopics, topicListState } from '../db/queries/server-topics.js';
import { unreadDms } from '../db/queries/unreads.js';
import { channelsWithTopics, topicsOf, unreadCounts } from '../db/queries/topics.js';
import { getUsers } from '../db/queries/users.js';
import type { ChannelSummary, ChannelTopicsView, DmConversation, GroupSettingValueView, RealmEmojiView, UnreadCountsView, UserGroupsView, UserSummary } from '../protocol/commands.js';
import * as z from 'zod';
import type { navigationViewSchema, savedSnippetSchema, scheduledMessageSchema } from '../protocol/commands.js';
import { ChangeCollector, type StoreChanges } from '../db/changes.js';
import type { EngineLogger } from '../base/seams.js';
import { pendingUnreadChanges } from './unread-pending.js';
import { isTopicMuted } from '../../common/topic-visibility.js';

const RESOLVED_PREFIX = '✔ ';
/** After a failed topic-list fetch, queries do not ask again for this long (a refresh call still does). */
const TOPIC_RETRY_MS = 60_000;

/** What the queries need besides the database; the server side is optional (tests of the cache alone). */
export interface QueryContext {
  readonly selfUserId: () => number | undefined;
  readonly conn?: ApiConnection;
  /** The event stream is live (a fetch now has a chance). */
  readonly online?: () => boolean;
  readonly now?: () => number;
  readonly emit?: (c: StoreChanges) => void;
  readonly logger?: EngineLogger;
}

export class SessionQueries {
  private readonly topicFetches = new Map<number, Promise<void>>();
  private readonly topicFailedAt = new Map<number, number>();

  constructor(
    private readonly db: LocalDb,
    private readonly ctx: QueryContext = { selfUserId: () => undefined },
  ) {}

  /** Every known channel with its known topics and unread counts, by name. */
  channels(): ChannelSummary[] {
    const subs = new Map<number, { color: string; pin_to_top: boolean }>();
    for (const c of getChannels(this.db)) if (c.subscription) subs.set(c.channel.stream_id, c.subscription);
    const { exclusions } = pendingUnreadChanges(this.db, this.ctx.selfUserId());
    return channelsWithTopics(this.db, exclusions).map((c) => ({
      channel_id: c.channel_id,
      name: c.name,
      is_subscribed: c.subscribed,
      is_muted: c.is_muted,
      pin_to_top: subs.get(c.channel_id)?.pin_to_top ?? false,
      color: subs.get(c.channel_id)?.color ?? null,
      // As Zulip counts a channel: its muted topics' unreads left out (of a muted channel, all
      // but those of unmuted and followed topics).
      unread_count: c.topics.reduce((n, t) => (isTopicMuted(c, t) ? n : n + t.unread_count), 0),
      topics: c.topics.map((t) => ({
        topic: t.topic,
        max_message_id: t.last_message_id,
        last_message_timestamp: t.last_message_timestamp,
        unread_count: t.unread_count,
        visibility_policy: t.visibility_policy,
      })),
    }));
  }

  /** A channel's complete topic list (as far as known now); fetches the server's when it may help. */
  channelTopics(channelId: number): ChannelTopicsView {
    const state = topicListState(this.db, channelId);
    const failedAt = this.topicFailedAt.get(channelId);
    const mayRetry = failedAt === undefined || this.now() - failedAt >= TOPIC_RETRY_MS;
    if (!state.current && mayRetry && this.ctx.online?.() === true) void this.refreshTopics(channelId);
    const { exclusions } = pendingUnreadChanges(this.db, this.ctx.selfUserId());
    return {
      channel_id: channelId,
      complete: state.current,
      fetched_at: state.fetched_at,
      topics: topicsOf(this.db, channelId, exclusions).map((t) => ({
        topic: t.topic,
        max_message_id: t.last_message_id,
        last_message_timestamp: t.last_message_timestamp,
        unread_count: t.unread_count,
        visibility_policy: t.visibility_policy,
        resolved: t.topic.startsWith(RESOLVED_PREFIX),
      })),
    };
  }

  /**
   * Fetch and store the server's topic list of a channel (one request at a time per channel).
   * Resolves when stored or failed; a failure is logged and leaves the stored list as it was.
   */
  refreshTopics(channelId: number): Promise<void> {
    const running = this.topicFetches.get(channelId);
    if (running) return running;
    const conn = this.ctx.conn;
    if (!conn) return Promise.resolve();
    const { version } = topicListState(this.db, channelId);
    const p = getStreamTopics(conn, { streamId: channelId })
      .then((res) => {
        this.topicFailedAt.delete(channelId);
        if (!this.db.open) return;
        storeServerTopics(this.db, channelId, res.topics, version, this.now());
        const changes = new ChangeCollector();
        changes.touched('channel_topics');
        this.ctx.emit?.(changes.freeze());
      })
      .catch((e: unknown) => {
        // Offline, a channel we cannot read, a malformed answer: the list stays incomplete.
        this.topicFailedAt.set(channelId, this.now());
        const reason = isApiError(e) ? `${e.kind}${e.kind === 'api' ? ` ${e.code}` : ''}` : e instanceof Error ? e.message : String(e);
        this.ctx.logger?.warn('channel topic list fetch failed', { channel_id: channelId, reason });
      })
      .finally(() => this.topicFetches.delete(channelId));
    this.topicFetches.set(channelId, p);
    return p;
  }

  /** Whether the channel is known locally (a topic list of an unknown one is refused). */
  hasChannel(channelId: number): boolean {
    return getChannel(this.db, channelId) !== undefined;
  }

  private now(): number {
    return this.ctx.now?.() ?? Date.now();
  }

  /** Every running topic-list fetch (close waits for them). */
  settled(): Promise<void> {
    return Promise.all([...this.topicFetches.values()]).then(() => undefined);
  }

  /** Every known DM conversation, newest first, with its participants' names and unread count. */
  dmConversations(): DmConversation[] {
    const self = this.ctx.selfUserId();
    const rows = dmConversationRows(this.db);
    // Only the participants' names: an organisation has thousands of users, a person tens of conversations.
    const ids = [...new Set(rows.flatMap((c) => c.dm_key.split(',').filter((x) => x !== '').map(Number)))];
    const names = new Map(getUsers(this.db, ids).map(({ user }) => [user.user_id, user.full_name]));
    const { exclusions } = pendingUnreadChanges(this.db, self);
    const counts = new Map(unreadDms(this.db, exclusions).map((d) => [d.dm_key, d.count]));
    return rows.map((c) => {
      const userIds = c.dm_key.split(',').filter((x) => x !== '').map(Number);
      const others = userIds.filter((id) => id !== self);
      return {
        key: c.dm_key,
        user_ids: userIds,
        participants: (others.length > 0 ? others : userIds).map((user_id) => ({ user_id, full_name: names.get(user_id) ?? null })),
        max_message_id: c.max_message_id,
        last_message_timestamp: c.timestamp,
        unread_count: counts.get(c.dm_key) ?? 0,
      };
    });
  }

  unreadCounts(): UnreadCountsView {
    const pending = pendingUnreadChanges(this.db, this.ctx.selfUserId());
    const u = unreadCounts(this.db, pending.exclusions, pending.stars);
    return { ...u, dms: u.dms.map((d) => ({ key: d.dm_key, count: d.count, mentions: d.mentions })) };
  }

  users(): UserSummary[] {
    return getUsers(this.db).map(({ user, isActive }) => ({
      user_id: user.user_id,
      email: user.email,
      full_name: user.full_name,
      is_active: isActive,
      is_bot: user.is_bot,
      avatar_url: user.avatar_url ?? null,
      role: typeof user.role === 'number' ? user.role : null,
      delivery_email: user.delivery_email,
      timezone: user.timezone,
    }));
  }

  savedSnippets(): Array<z.output<typeof savedSnippetSchema>> {
    return getSavedSnippets(this.db);
  }

  /** The custom emoji register and `realm_emoji` events stored, by name (none when unreadable). */
  realmEmoji(): RealmEmojiView[] {
    const parsed = z.record(z.string(), realmEmoji).safeParse(getRealmValue(this.db, 'realm_emoji') ?? {});
    if (!parsed.success) return [];
    return Object.values(parsed.data)
      .map((e) => ({ id: e.id, name: e.name, source_url: e.source_url, deactivated: e.deactivated }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  navigationViews(): Array<z.output<typeof navigationViewSchema>> {
    return getNavigationViews(this.db).map((v) => ({ fragment: v.fragment, is_pinned: v.is_pinned, name: v.name ?? null }));
  }

  scheduledMessages(): Array<z.output<typeof scheduledMessageSchema>> {
    return getScheduledMessages(this.db);
  }

  /** User groups as stored (queued changes applied), system groups included; deactivated ones when asked. */
  userGroups(includeDeactivated: boolean): UserGroupsView {
    const setting = (v: unknown): GroupSettingValueView | null => (typeof v === 'number' || (typeof v === 'object' && v !== null) ? (v as GroupSettingValueView) : null);
    return {
      groups: getUserGroups(this.db, { includeDeactivated }).map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        members: g.members,
        direct_subgroup_ids: g.direct_subgroup_ids,
        is_system_group: g.is_system_group,
        deactivated: g.deactivated,
        creator_id: g.creator_id ?? null,
        date_created: g.date_created ?? null,
        can_add_members_group: g.can_add_members_group ?? null,
        can_join_group: g.can_join_group ?? null,
        can_leave_group: g.can_leave_group ?? null,
        can_manage_group: g.can_manage_group ?? null,
        can_mention_group: g.can_mention_group ?? null,
        can_remove_members_group: g.can_remove_members_group ?? null,
      })),
      can_manage_all_groups: setting(getRealmValue(this.db, 'realm_can_manage_all_groups')),
    };
  }

  userSettings(): Record<string, unknown> {
    return getUserSettings(this.db);
  }
}
