/**
 * register's `realm` and `realm_user` parts (docs/zulip-behaviour.md "Register"): the realm settings and server limits a
 * client needs, and the current user's own identity and permissions.
 */
import { seconds } from '../clock.js';
import type { ServerState } from '../state.js';
import { userHasPermission, type GroupSettingValue } from './groups.js';
import { PRESENCE_OFFLINE_SECONDS, PRESENCE_PING_SECONDS } from './presence.js';
import { getRealm, type RealmSettings } from './realm.js';
import { apiGroupSettingValue } from './user-groups.js';
import { apiUser, avatarUrl, ROLE, type UserRow } from './users.js';

/** Zulip's typing-notification timings (docs/zulip-behaviour.md "Realm limits and timings"), in milliseconds. */
export const TYPING = { startedExpiry: 15000, stoppedWait: 5000, startedWait: 10000 } as const;

/** When this server process started: register's `server_generation` (clients reload on change). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

type GroupSettingName = Extract<keyof RealmSettings, `can_${string}`>;

/** Where the server's emoji name table is served (real Zulip's has a content hash in the name). */
export const SERVER_EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

export function realmState(srv: ServerState): Record<string, unknown> {
  const realm = getRealm(srv);
  const group = (name: GroupSettingName): GroupSettingValue => apiGroupSettingValue(srv, realm[name]);
  const cfg = srv.config;
  return {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_url: cfg.realmUrl,
    realm_uri: cfg.realmUrl,
    realm_icon_url: `${cfg.realmUrl}/static/images/logo/zulip-icon-square.svg`,
    realm_icon_source: 'D',
    server_emoji_data_url: `${cfg.realmUrl}${SERVER_EMOJI_DATA_PATH}`,
    realm_default_language: 'en',
    realm_plan_type: 1,
    realm_org_type: 0,
    realm_date_created: (srv.db.prepare('SELECT MIN(date_created) FROM user_groups').pluck().get() as number | null) ?? seconds(srv.clock),
    zulip_plan_is_not_limited: true,
    // Limits.
    max_stream_name_length: realm.max_stream_name_length,
    max_stream_description_length: realm.max_stream_description_length,
    max_topic_length: realm.max_topic_length,
    max_message_length: realm.max_message_length,
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    max_file_upload_size_mib: cfg.maxFileUploadMib,
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_reminder_note_length: 1000,
    max_bulk_new_subscription_messages: 100,
    // Topics and editing.
    realm_empty_topic_display_name: realm.empty_topic_display_name,
    realm_topics_policy: realm.topics_policy,
    realm_mandatory_topics: realm.topics_policy === 'disable_empty_topic',
    realm_allow_message_editing: realm.allow_message_editing,
    realm_message_content_edit_limit_seconds: realm.message_content_edit_limit_seconds,
    realm_move_messages_within_stream_limit_seconds: realm.move_messages_within_stream_limit_seconds,
    realm_move_messages_between_streams_limit_seconds: realm.move_messages_between_streams_limit_seconds,
    realm_message_edit_history_visibility_policy: realm.message_edit_history_visibility_policy,
    realm_allow_edit_history: realm.message_edit_history_visibility_policy !== 'none',
    realm_can_move_messages_between_topics_group: group('can_move_messages_between_topics_group'),
    realm_can_move_messages_between_channels_group: group('can_move_messages_between_channels_group'),
    realm_can_resolve_topics_group: group('can_resolve_topics_group'),
    realm_can_mention_many_users_group: group('can_mention_many_users_group'),
    realm_can_invite_users_group: group('can_invite_users_group'),
    realm_can_add_subscribers_group: group('can_add_subscribers_group'),
    realm_can_create_public_channel_group: group('can_create_public_channel_group'),
    realm_can_create_private_channel_group: group('can_create_private_channel_group'),
    realm_can_create_web_public_channel_group: group('can_create_web_public_channel_group'),
    realm_can_create_groups: group('can_create_groups'),
    realm_can_manage_all_groups: group('can_manage_all_groups'),
    realm_can_delete_any_message_group: group('can_delete_any_message_group'),
    realm_can_delete_own_message_group: group('can_delete_own_message_group'),
    realm_message_content_delete_limit_seconds: realm.message_content_delete_limit_seconds,
    realm_enable_spectator_access: realm.enable_spectator_access,
    realm_message_retention_days: -1,
    realm_waiting_period_threshold: 0,
    realm_presence_disabled: false,
    realm_enable_read_receipts: realm.enable_read_receipts,
    realm_inline_image_preview: true,
    realm_inline_url_embed_preview: realm.inline_url_embed_preview,
    realm_push_notifications_enabled: true,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    // Server timing and identity.
    event_queue_longpoll_timeout_seconds: cfg.longPollSeconds,
    server_typing_started_expiry_period_milliseconds: TYPING.startedExpiry,
    server_typing_stopped_wait_period_milliseconds: TYPING.stoppedWait,
    server_typing_started_wait_period_milliseconds: TYPING.startedWait,
    server_presence_ping_interval_seconds: PRESENCE_PING_SECONDS,
    server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_SECONDS,
    server_generation: SERVER_GENERATION,
    server_web_public_streams_enabled: false,
    server_needs_upgrade: false,
    development_environment: false,
    password_min_length: 6,
    password_max_length: 100,
  };
}

/** Zulip's cross-realm system bots (e.g. the Notification Bot that posts move notices). */
const SYSTEM_BOT_EMAILS: ReadonlySet<string> = new Set(['notification-bot@zulip.com', 'welcome-bot@zulip.com']);
const isSystemBot = (u: UserRow) => u.is_bot === 1 && SYSTEM_BOT_EMAILS.has(u.email);

/**
 * The `realm_user` part: every user (system bots under `cross_realm_bots`, as Zulip lists them),
 * and the current user's identity and permissions.
 */
export function realmUserState(srv: ServerState, me: UserRow, clientGravatar: boolean): Record<string, unknown> {
  const realm = getRealm(srv);
  const all = srv.db.prepare('SELECT * FROM users ORDER BY id').all() as UserRow[];
  const users = all.filter((u) => !isSystemBot(u));
  const shape = (u: UserRow) => apiUser(srv, u, { clientGravatar, includeIsActive: false });
  const can = (v: GroupSettingValue) => userHasPermission(srv, me.id, v);
  const canPublic = can(realm.can_create_public_channel_group);
  const canPrivate = can(realm.can_create_private_channel_group);
  return {
    realm_users: users.filter((u) => u.is_active === 1).map(shape),
    realm_non_active_users: users.filter((u) => u.is_active !== 1).map(shape),
    cross_realm_bots: all.filter(isSystemBot).map((u) => ({ ...shape(u), is_system_bot: true })),
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    is_owner: me.role === ROLE.owner,
    is_admin: me.role <= ROLE.administrator,
    is_moderator: me.role === ROLE.moderator,
    is_guest: me.role === ROLE.guest,
    avatar_source: 'G',
    avatar_url: avatarUrl(srv, me),
    avatar_url_medium: avatarUrl(srv, me),
    can_create_streams: canPublic || canPrivate,
    can_create_public_streams: canPublic,
    can_create_private_streams: canPrivate,
    can_create_web_public_streams: can(realm.can_create_web_public_channel_group),
    can_subscribe_other_users: can(realm.can_add_subscribers_group),
    can_invite_others_to_realm: can(realm.can_invite_users_group),
  };
}
