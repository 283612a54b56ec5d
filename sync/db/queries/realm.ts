/**
 * Realm settings as register names them (`realm_*`, `max_*`, timing fields), one JSON value per
 * row, and the typed views the engine needs: editing settings and length limits.
 */
import type { GroupSettingValue } from '../../api/index.js';
import type { LocalDb } from '../open.js';
import { getJsonValue, setJsonValue } from './json-values.js';
import { cachedStatement } from './statements.js';

export function getRealmValue(db: LocalDb, name: string): unknown {
  return getJsonValue(db, 'realm', name);
}

export function setRealmValue(db: LocalDb, name: string, value: unknown): void {
  setJsonValue(db, 'realm', name, value);
}

export function getRealmValues(db: LocalDb): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of cachedStatement<[], { name: string; value: string }>(db, 'SELECT name, value FROM realm').all()) {
    out[r.name] = JSON.parse(r.value);
  }
  return out;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const groupValue = (v: unknown): GroupSettingValue | null =>
  typeof v === 'number' || (typeof v === 'object' && v !== null) ? (v as GroupSettingValue) : null;

export interface RealmEditingSettings {
  readonly allowMessageEditing: boolean;
  /** Seconds; null = no limit. */
  readonly contentEditLimitSeconds: number | null;
  readonly moveWithinChannelLimitSeconds: number | null;
  readonly moveBetweenChannelsLimitSeconds: number | null;
  readonly canMoveBetweenTopicsGroup: GroupSettingValue | null;
  readonly canMoveBetweenChannelsGroup: GroupSettingValue | null;
  readonly canResolveTopicsGroup: GroupSettingValue | null;
  readonly topicsPolicy: string | null;
  /** How the `""` topic is shown (FL 334). */
  readonly emptyTopicDisplayName: string | null;
}

export function getRealmEditingSettings(db: LocalDb): RealmEditingSettings {
  const r = getRealmValues(db);
  return {
    allowMessageEditing: r.realm_allow_message_editing !== false,
    contentEditLimitSeconds: num(r.realm_message_content_edit_limit_seconds),
    moveWithinChannelLimitSeconds: num(r.realm_move_messages_within_stream_limit_seconds),
    moveBetweenChannelsLimitSeconds: num(r.realm_move_messages_between_streams_limit_seconds),
    canMoveBetweenTopicsGroup: groupValue(r.realm_can_move_messages_between_topics_group),
    canMoveBetweenChannelsGroup: groupValue(r.realm_can_move_messages_between_channels_group),
    canResolveTopicsGroup: groupValue(r.realm_can_resolve_topics_group),
    topicsPolicy: typeof r.realm_topics_policy === 'string' ? r.realm_topics_policy : null,
    emptyTopicDisplayName: typeof r.realm_empty_topic_display_name === 'string' ? r.realm_empty_topic_display_name : null,
  };
}

export interface RealmLimits {
  readonly maxMessageLength: number | null;
  readonly maxTopicLength: number | null;
  readonly maxStreamNameLength: number | null;
  readonly maxStreamDescriptionLength: number | null;
  readonly maxFileUploadSizeMib: number | null;
  readonly longPollTimeoutSeconds: number | null;
  readonly typingStartedExpiryMs: number | null;
  readonly typingStoppedWaitMs: number | null;
  readonly typingStartedWaitMs: number | null;
}

export function getRealmLimits(db: LocalDb): RealmLimits {
  const r = getRealmValues(db);
  return {
    maxMessageLength: num(r.max_message_length),
    maxTopicLength: num(r.max_topic_length),
    maxStreamNameLength: num(r.max_stream_name_length),
    maxStreamDescriptionLength: num(r.max_stream_description_length),
    maxFileUploadSizeMib: num(r.max_file_upload_size_mib),
    longPollTimeoutSeconds: num(r.event_queue_longpoll_timeout_seconds),
    typingStartedExpiryMs: num(r.server_typing_started_expiry_period_milliseconds),
    typingStoppedWaitMs: num(r.server_typing_stopped_wait_period_milliseconds),
    typingStartedWaitMs: num(r.server_typing_started_wait_period_milliseconds),
  };
}
