/** The current user's settings: spec "PATCH /settings (update the current user's settings)". */
import type { ApiConnection, RequestOptions } from '../core.js';
import type { ParamValue } from '../encoding.js';
import { endpoint, responseTable, send } from '../operation.js';
import { emptySuccess } from '../schemas/envelope.js';

const updateSettingsEndpoint = endpoint({ method: 'PATCH', path: '/settings', schema: emptySuccess });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const settingsResponses = responseTable(updateSettingsEndpoint);

/** FL 454 renamed the Recent conversations home view from `recent_topics` to `recent`. */
export const WEB_HOME_VIEW_RECENT_RENAMED_FL = 454;

/** Account table of the spec. A password change needs both the old and the new password. */
export type AccountSettings = {
  full_name?: string;
  /** Starts an email-change confirmation; the user confirms from the new address. */
  email?: string;
} & ({ old_password: string; new_password: string } | { old_password?: never; new_password?: never });

/** Display and behavior table of the spec, plus the OpenAPI (FL 420) settings the spec leaves out. */
export interface DisplaySettings {
  twenty_four_hour_time?: boolean;
  /** 1 always, 2 only in conversation views, 3 never (FL 175). */
  web_mark_read_on_scroll_policy?: 1 | 2 | 3;
  /** 1 top topic, 2 channel feed, 3 list of topics (FL 383), 4 top unread topic (FL 401). */
  web_channel_default_view?: 1 | 2 | 3 | 4;
  starred_message_counts?: boolean;
  receives_typing_notifications?: boolean;
  web_suggest_update_timezone?: boolean;
  fluid_layout_width?: boolean;
  high_contrast_mode?: boolean;
  web_font_size_px?: number;
  /** Percent: 120 means a line height of 1.2. */
  web_line_height_percent?: number;
  /** 1 automatic, 2 dark, 3 light. */
  color_scheme?: 1 | 2 | 3;
  /** Disabling deletes every draft stored on the server. */
  enable_drafts_synchronization?: boolean;
  translate_emoticons?: boolean;
  display_emoji_reaction_users?: boolean;
  /** A language code the server has translations for, e.g. `en`, `de`. */
  default_language?: string;
  /**
   * `recent` is the FL 454 name of `recent_topics`; either is accepted and sent as the name the
   * server knows.
   */
  web_home_view?: 'recent_topics' | 'recent' | 'inbox' | 'all_messages';
  web_escape_navigates_to_home_view?: boolean;
  left_side_userlist?: boolean;
  emojiset?: 'google' | 'twitter' | 'text';
  /** 1 automatic, 2 always, 3 never. */
  demote_inactive_streams?: 1 | 2 | 3;
  /** 1 compact, 2 with status, 3 with avatar and status. */
  user_list_style?: 1 | 2 | 3;
  web_animate_image_previews?: 'always' | 'on_hover' | 'never';
  /** 1 all channels, 2 unmuted channels and topics, 3 no channels. */
  web_stream_unreads_count_display_policy?: 1 | 2 | 3;
  hide_ai_features?: boolean;
  web_left_sidebar_show_channel_folders?: boolean;
  web_left_sidebar_unreads_count_summary?: boolean;
  /** IANA time-zone identifier. */
  timezone?: string;
  /** 1 all unread messages, 2 DMs/mentions/followed topics, 3 DMs and mentions, 4 none. */
  desktop_icon_count_display?: 1 | 2 | 3 | 4;
  web_navigate_to_sent_message?: boolean;
  enter_sends?: boolean;
  presence_enabled?: boolean;
  send_private_typing_notifications?: boolean;
  send_stream_typing_notifications?: boolean;
  send_read_receipts?: boolean;
  allow_private_data_export?: boolean;
  /** 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
  email_address_visibility?: 1 | 2 | 3 | 4 | 5;
}

/** Notifications list of the spec (all boolean unless noted), plus the OpenAPI (FL 420) extras. */
export interface NotificationSettings {
  enable_stream_desktop_notifications?: boolean;
  enable_stream_email_notifications?: boolean;
  enable_stream_push_notifications?: boolean;
  enable_stream_audible_notifications?: boolean;
  /** A sound name, e.g. `ding`, or `none`. */
  notification_sound?: string;
  enable_desktop_notifications?: boolean;
  enable_sounds?: boolean;
  email_notifications_batching_period_seconds?: number;
  enable_offline_email_notifications?: boolean;
  enable_offline_push_notifications?: boolean;
  enable_online_push_notifications?: boolean;
  enable_followed_topic_desktop_notifications?: boolean;
  enable_followed_topic_email_notifications?: boolean;
  enable_followed_topic_push_notifications?: boolean;
  enable_followed_topic_audible_notifications?: boolean;
  enable_digest_emails?: boolean;
  enable_marketing_emails?: boolean;
  enable_login_emails?: boolean;
  message_content_in_email_notifications?: boolean;
  pm_content_in_desktop_notifications?: boolean;
  wildcard_mentions_notify?: boolean;
  enable_followed_topic_wildcard_mentions_notify?: boolean;
  /** 1 automatic, 2 always, 3 never. */
  realm_name_in_email_notifications_policy?: 1 | 2 | 3;
  /** 1 participated, 2 sent a message, 3 started, 4 never. */
  automatically_follow_topics_policy?: 1 | 2 | 3 | 4;
  /** 1 participated, 2 sent a message, 3 started, 4 never. */
  automatically_unmute_topics_in_muted_streams_policy?: 1 | 2 | 3 | 4;
  automatically_follow_topics_where_mentioned?: boolean;
  resolved_topic_notice_auto_read_policy?: 'always' | 'except_followed' | 'never';
}

/** Every `PATCH /settings` parameter; `dense_mode` (removed at FL 364) is deliberately absent. */
export type UpdateSettingsArgs = AccountSettings & DisplaySettings & NotificationSettings;

/** Spec "PATCH /settings": change any of the current user's settings; only the keys given are sent. */
export async function updateSettings(conn: ApiConnection, args: UpdateSettingsArgs, opts: RequestOptions = {}) {
  if ((args.old_password === undefined) !== (args.new_password === undefined)) {
    throw new Error('updateSettings: old_password and new_password must be given together');
  }
  const params: Record<string, ParamValue | undefined> = { ...args };
  if (args.web_home_view === 'recent' || args.web_home_view === 'recent_topics') {
    params.web_home_view = conn.supports(WEB_HOME_VIEW_RECENT_RENAMED_FL) ? 'recent' : 'recent_topics';
  }
  return send(conn, updateSettingsEndpoint, { params }, opts);
}
