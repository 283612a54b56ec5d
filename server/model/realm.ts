/**
 * Realm settings with Zulip's defaults. Group-valued settings hold a group-setting value (a group
 * id or {direct_members, direct_subgroups}); system groups are resolved by name at seed time.
 */
import type { ServerState } from '../state.js';
import { systemGroupId, type GroupSettingValue } from './groups.js';

export interface RealmSettings {
  name: string;
  description: string;
  empty_topic_display_name: string;
  allow_message_editing: boolean;
  /** null = no limit. Zulip's default is 600 s. */
  message_content_edit_limit_seconds: number | null;
  /** null = no limit. Zulip's default is 3 days. */
  move_messages_within_stream_limit_seconds: number | null;
  /** null = no limit. Zulip's default is 7 days. */
  move_messages_between_streams_limit_seconds: number | null;
  can_move_messages_between_topics_group: GroupSettingValue;
  can_move_messages_between_channels_group: GroupSettingValue;
  can_resolve_topics_group: GroupSettingValue;
  can_mention_many_users_group: GroupSettingValue;
  can_invite_users_group: GroupSettingValue;
  can_add_subscribers_group: GroupSettingValue;
  can_create_public_channel_group: GroupSettingValue;
  can_create_private_channel_group: GroupSettingValue;
  can_create_web_public_channel_group: GroupSettingValue;
  can_create_groups: GroupSettingValue;
  can_manage_all_groups: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  /** null = no limit. Zulip's default is 600 s. */
  message_content_delete_limit_seconds: number | null;
  /** 'all' | 'moves' | 'none': who sees edit history. */
  message_edit_history_visibility_policy: 'all' | 'moves' | 'none';
  topics_policy: 'allow_empty_topic' | 'disable_empty_topic';
  enable_spectator_access: boolean;
  /** Read receipts (GET /messages/{id}/read_receipts) are available; Zulip's default is on. */
  enable_read_receipts: boolean;
  /** Link previews (`message_embed`) fetched after a message is sent; Zulip's default is off. */
  inline_url_embed_preview: boolean;
  /** Channels with more subscribers than this need can_mention_many_users_group for @all. */
  wildcard_mention_threshold: number;
  invite_expiry_default_minutes: number;
  max_topic_length: number;
  max_message_length: number;
  max_stream_name_length: number;
  max_stream_description_length: number;
}

/** Defaults that do not name groups; group defaults are filled in by the seed (ids vary). */
export const REALM_DEFAULTS: Omit<RealmSettings, `can_${string}`> = {
  name: 'Sandbox',
  description: 'The offline sandbox realm.',
  empty_topic_display_name: 'general chat',
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600,
  message_content_delete_limit_seconds: 600,
  move_messages_within_stream_limit_seconds: 259200,
  move_messages_between_streams_limit_seconds: 604800,
  message_edit_history_visibility_policy: 'all',
  topics_policy: 'allow_empty_topic',
  enable_spectator_access: false,
  enable_read_receipts: true,
  inline_url_embed_preview: false,
  wildcard_mention_threshold: 15,
  invite_expiry_default_minutes: 14400,
  max_topic_length: 60,
  max_message_length: 10000,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
};

/** The system group each group-valued realm setting defaults to (Zulip's defaults). */
export const REALM_GROUP_DEFAULTS = {
  can_move_messages_between_topics_group: 'role:everyone',
  can_move_messages_between_channels_group: 'role:members',
  can_resolve_topics_group: 'role:everyone',
  can_mention_many_users_group: 'role:administrators',
  can_invite_users_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_create_groups: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
} as const satisfies Record<`can_${string}`, string>;

export function getRealm(srv: ServerState): RealmSettings {
  const rows = srv.db.prepare('SELECT name, value FROM realm_settings').all() as Array<{ name: string; value: string }>;
  const out: Record<string, unknown> = { ...REALM_DEFAULTS };
  for (const r of rows) out[r.name] = JSON.parse(r.value);
  // A database seeded before a group setting existed gets its default group.
  for (const [name, group] of Object.entries(REALM_GROUP_DEFAULTS)) out[name] ??= systemGroupId(srv, group);
  return out as unknown as RealmSettings;
}

export function setRealmSettings(srv: ServerState, changes: Partial<RealmSettings>): void {
  const stmt = srv.db.prepare('INSERT INTO realm_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value');
  for (const [k, v] of Object.entries(changes)) {
    if (v !== undefined) stmt.run(k, JSON.stringify(v));
  }
}

/** The realm's linkifiers (`{pattern, url_template, id}`, in processing order): none, as the renderer applies none. */
export function realmLinkifiers(_srv: ServerState): Array<{ pattern: string; url_template: string; id: number }> {
  return [];
}
