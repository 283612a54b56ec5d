/**
 * The `user_settings` object of `/register` (FL 89, `user_settings_object` capability): every setting
 * of the spec's "PATCH /settings" tables, plus the ones Zulip's OpenAPI adds (docs/zulip-behaviour.md "Settings"), each typed
 * with its allowed values. Enumerated settings degrade to `'unknown'` on a value a newer server invents.
 *
 * Everything is optional (servers add settings over time and drop some, e.g. `dense_mode` at
 * FL 364), and keys this client does not know are kept as `unknown` so nothing is lost when the
 * snapshot is stored and handed back.
 */
import * as z from 'zod';
import { int, openEnum, openIntEnum } from './envelope.js';

const bool = z.boolean().optional();

export const userSettingsShape = () => ({
  // Display and behavior (spec table).
  /** `null` (FL 408) = use the locale's default format. */
  twenty_four_hour_time: z.boolean().nullable().optional(),
  /** 1 top topic, 2 channel feed, 3 list of topics (FL 383), 4 top unread topic (FL 401). */
  web_channel_default_view: openIntEnum([1, 2, 3, 4]).optional(),
  starred_message_counts: bool,
  receives_typing_notifications: bool,
  web_suggest_update_timezone: bool,
  fluid_layout_width: bool,
  high_contrast_mode: bool,
  web_font_size_px: int.optional(),
  web_line_height_percent: int.optional(),
  /** 1 automatic, 2 dark, 3 light. */
  color_scheme: openIntEnum([1, 2, 3]).optional(),
  enable_drafts_synchronization: bool,
  translate_emoticons: bool,
  display_emoji_reaction_users: bool,
  default_language: z.string().optional(),
  /** `recent` replaced `recent_topics` at FL 454; both are accepted. */
  web_home_view: openEnum(['recent_topics', 'recent', 'inbox', 'all_messages']).optional(),
  web_escape_navigates_to_home_view: bool,
  left_side_userlist: bool,
  emojiset: openEnum(['google', 'google-blob', 'twitter', 'text']).optional(),
  /** 1 automatic, 2 always, 3 never. */
  demote_inactive_streams: openIntEnum([1, 2, 3]).optional(),
  /** 1 compact, 2 with status, 3 with avatar and status. */
  user_list_style: openIntEnum([1, 2, 3]).optional(),
  web_animate_image_previews: openEnum(['always', 'on_hover', 'never']).optional(),
  /** 1 all channels, 2 unmuted channels and topics, 3 no channels. */
  web_stream_unreads_count_display_policy: openIntEnum([1, 2, 3]).optional(),
  hide_ai_features: bool,
  timezone: z.string().optional(),
  /** 1 all unread, 2 DMs/mentions/followed topics, 3 DMs and mentions, 4 none. */
  desktop_icon_count_display: openIntEnum([1, 2, 3, 4]).optional(),

  // Beyond the spec's table (docs/zulip-behaviour.md "Settings", OpenAPI `user_settings`).
  /** 1 always, 2 only in conversation views, 3 never (FL 175). */
  web_mark_read_on_scroll_policy: openIntEnum([1, 2, 3]).optional(),
  web_left_sidebar_show_channel_folders: bool,
  web_left_sidebar_unreads_count_summary: bool,
  web_inbox_show_channel_folders: bool,
  web_navigate_to_sent_message: bool,
  enter_sends: bool,
  send_private_typing_notifications: bool,
  send_stream_typing_notifications: bool,
  send_read_receipts: bool,
  presence_enabled: bool,
  allow_private_data_export: bool,
  /** 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
  email_address_visibility: openIntEnum([1, 2, 3, 4, 5]).optional(),
  /** 1 automatic, 2 always, 3 never. */
  realm_name_in_email_notifications_policy: openIntEnum([1, 2, 3]).optional(),
  /** 1 participated, 2 sent a message, 3 started, 4 never. */
  automatically_follow_topics_policy: openIntEnum([1, 2, 3, 4]).optional(),
  automatically_unmute_topics_in_muted_streams_policy: openIntEnum([1, 2, 3, 4]).optional(),
  automatically_follow_topics_where_mentioned: bool,
  /** FL 385. */
  resolved_topic_notice_auto_read_policy: openEnum(['always', 'except_followed', 'never']).optional(),

  // Notifications (spec list).
  enable_stream_desktop_notifications: bool,
  enable_stream_email_notifications: bool,
  enable_stream_push_notifications: bool,
  enable_stream_audible_notifications: bool,
  notification_sound: z.string().optional(),
  enable_desktop_notifications: bool,
  enable_sounds: bool,
  email_notifications_batching_period_seconds: int.optional(),
  enable_offline_email_notifications: bool,
  enable_offline_push_notifications: bool,
  enable_online_push_notifications: bool,
  enable_followed_topic_desktop_notifications: bool,
  enable_followed_topic_email_notifications: bool,
  enable_followed_topic_push_notifications: bool,
  enable_followed_topic_audible_notifications: bool,
  enable_digest_emails: bool,
  enable_marketing_emails: bool,
  enable_login_emails: bool,
  message_content_in_email_notifications: bool,
  pm_content_in_desktop_notifications: bool,
  wildcard_mentions_notify: bool,
  enable_followed_topic_wildcard_mentions_notify: bool,

  // Server-provided choices (read-only).
  available_notification_sounds: z.array(z.string()).optional(),
  emojiset_choices: z.array(z.object({ key: z.string(), text: z.string() })).optional(),
} satisfies z.ZodRawShape);

export const userSettings = z.lazy(() => z.looseObject(userSettingsShape()));
export type UserSettings = z.output<typeof userSettings>;
export type UserSettingName = keyof ReturnType<typeof userSettingsShape>;

/**
 * Validate one `user_settings` update (event `{property, value}`) against the same types, so the
 * engine applies a typed value. Returns the parsed one-key patch, or `undefined` when the value does
 * not fit a known setting's type. Unknown properties pass through unchanged (kept, like the snapshot).
 */
export function parseUserSettingUpdate(property: string, value: unknown): Record<string, unknown> | undefined {
  const r = userSettings.safeParse({ [property]: value });
  return r.success ? r.data : undefined;
}
