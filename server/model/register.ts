/**
 * POST /register's initial state (docs/zulip-behaviour.md "Register"): each part is computed only when its fetch key is
 * wanted (`fetch_event_types`, else `event_types`, else everything). Keys are not always the event
 * names (`navigation_views` vs the `navigation_view` event, `realm_user_groups` vs `user_group`).
 */
import type { ClientCapabilities } from '../events/queues.js';
import type { ServerState } from '../state.js';
import { listAlertWords } from './alert-words.js';
import { listMutedUsers } from './muted-users.js';
import { unreadMsgs } from './messages.js';
import { listNavigationViews } from './navigation-views.js';
import { realmLinkifiers } from './realm.js';
import { realmEmoji } from './realm-emoji.js';
import { legacyRealmPresence, realmPresences, userStatuses } from './presence.js';
import { defaultChannelIds, streamsState, subscriptionState, type IncludeSubscribers } from './register-channels.js';
import { maxMessageId, recentPrivateConversations, starredMessageIds } from './register-messages.js';
import { realmState, realmUserState } from './register-realm.js';
import { listSavedSnippets } from './saved-snippets.js';
import { listScheduledMessages } from './scheduled-messages.js';
import { apiUserGroup, listGroups } from './user-groups.js';
import { getUserSettings, NOTIFICATION_SOUNDS } from './user-settings.js';
import { listUserTopics } from './user-topics.js';
import type { UserRow } from './users.js';

export interface RegisterOptions {
  /** null: every part. */
  readonly fetchEventTypes: readonly string[] | null;
  readonly capabilities: ClientCapabilities;
  readonly clientGravatar: boolean;
  readonly includeSubscribers: IncludeSubscribers;
  /** register's `slim_presence`: `presences` by user id in the modern format, else by email (legacy). */
  readonly slimPresence?: boolean;
}

/** Settings that clients without `user_settings_object` get at the top level (FL < 89 layout). */
const LEGACY_DISPLAY_SETTINGS = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'fluid_layout_width',
  'web_home_view',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'timezone',
  'translate_emoticons',
  'twenty_four_hour_time',
  'enter_sends',
] as const;
const LEGACY_NOTIFICATION_SETTINGS = [
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'presence_enabled',
] as const;

const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

export function initialState(srv: ServerState, me: UserRow, opts: RegisterOptions): Record<string, unknown> {
  const wanted = opts.fetchEventTypes === null ? null : new Set(opts.fetchEventTypes);
  const want = (key: string) => wanted === null || wanted.has(key);
  const caps = opts.capabilities;
  const allowEmptyTopic = caps.empty_topic_name === true;
  const archived = caps.archived_channels === true;
  const state: Record<string, unknown> = {};

  if (want('alert_words')) state.alert_words = listAlertWords(srv, me.id);
  if (want('custom_profile_fields')) Object.assign(state, { custom_profile_fields: [], custom_profile_field_types: {} });
  if (want('drafts')) state.drafts = [];
  if (want('message')) state.max_message_id = maxMessageId(srv, me.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = unreadMsgs(srv, me.id, { allowEmptyTopicName: allowEmptyTopic });
  if (want('muted_topics')) {
    state.muted_topics = listUserTopics(srv, me.id, allowEmptyTopic)
      .filter((t) => t.visibility_policy === 1)
      .map((t) => [channelName(srv, t.stream_id), t.topic_name, t.last_updated]);
  }
  if (want('muted_users')) state.muted_users = listMutedUsers(srv, me.id);
  if (want('navigation_views')) state.navigation_views = listNavigationViews(srv, me.id);
  if (want('onboarding_steps')) state.onboarding_steps = [];
  if (want('presence')) {
    const modern = realmPresences(srv);
    state.presences = opts.slimPresence === true ? modern.presences : legacyRealmPresence(srv);
    Object.assign(state, { presence_last_update_id: modern.presence_last_update_id, server_timestamp: srv.clock.now() / 1000 });
  }
  if (want('realm')) Object.assign(state, realmState(srv));
  if (want('realm_domains')) state.realm_domains = [];
  if (want('realm_emoji')) state.realm_emoji = realmEmoji(srv);
  if (want('realm_linkifiers')) state.realm_linkifiers = realmLinkifiers(srv);
  if (want('realm_filters')) state.realm_filters = [];
  if (want('realm_playgrounds')) state.realm_playgrounds = [];
  if (want('realm_user')) Object.assign(state, realmUserState(srv, me, opts.clientGravatar));
  if (want('realm_bot')) state.realm_bots = [];
  if (want('realm_user_groups')) {
    state.realm_user_groups = listGroups(srv, { includeDeactivated: caps.include_deactivated_groups === true }).map((g) => apiUserGroup(srv, g));
  }
  if (want('recent_private_conversations')) state.recent_private_conversations = recentPrivateConversations(srv, me.id);
  if (want('saved_snippets')) state.saved_snippets = listSavedSnippets(srv, me.id);
  if (want('scheduled_messages')) state.scheduled_messages = listScheduledMessages(srv, me.id);
  if (want('starred_messages')) state.starred_messages = starredMessageIds(srv, me.id);
  if (want('stream')) state.streams = streamsState(srv, me.id, archived);
  if (want('default_streams')) state.realm_default_streams = defaultChannelIds(srv);
  if (want('default_stream_groups')) state.realm_default_stream_groups = [];
  if (want('subscription')) Object.assign(state, subscriptionState(srv, me.id, { subscribers: opts.includeSubscribers, archived }));
  if (want('user_status')) state.user_status = userStatuses(srv);
  if (want('user_topic')) state.user_topics = listUserTopics(srv, me.id, allowEmptyTopic);
  if (want('video_calls')) state.has_zoom_token = false;
  Object.assign(state, settingsState(srv, me, want, caps.user_settings_object === true));
  return state;
}

function settingsState(srv: ServerState, me: UserRow, want: (k: string) => boolean, settingsObject: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!want('user_settings') && !want('update_display_settings') && !want('update_global_notifications')) return out;
  const settings: Record<string, unknown> = getUserSettings(srv, me.id);
  if (want('user_settings')) {
    out.user_settings = { ...settings, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: [...NOTIFICATION_SOUNDS] };
  }
  if (!settingsObject && want('update_display_settings')) {
    for (const k of LEGACY_DISPLAY_SETTINGS) out[k] = settings[k];
    out.emojiset_choices = EMOJISET_CHOICES;
  }
  if (!settingsObject && want('update_global_notifications')) {
    for (const k of LEGACY_NOTIFICATION_SETTINGS) out[k] = settings[k];
    out.available_notification_sounds = [...NOTIFICATION_SOUNDS];
  }
  return out;
}

function channelName(srv: ServerState, id: number): string {
  return (srv.db.prepare('SELECT name FROM channels WHERE id = ?').pluck().get(id) as string | undefined) ?? '';
}

