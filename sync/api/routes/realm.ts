/**
 * Realm-wide data: custom emoji (`GET /realm/emoji`) and linkifiers (`GET /realm/linkifiers`), and
 * the organization settings that govern message editing and moving (spec "PATCH /messages/{message_id}"
 * rule 2; the operation itself is `PATCH /realm`, a referenced operation).
 *
 * `PATCH /realm` is not in the normalised FL 420 OpenAPI file, so the encodings follow Zulip's
 * server (`zerver/views/realm.py`, `update_realm`) and the realm fields' OpenAPI descriptions:
 *   - `allow_message_editing`: `Json[bool]`.
 *   - the three `*_limit_seconds`: `Json[int | str]`, where the one string is `"unlimited"` (no
 *     limit). The string is JSON-encoded too, so the wire value is `"unlimited"` *with* quotes; a
 *     bare `unlimited` is not valid JSON and is rejected. `null` cannot be sent (the server reads a
 *     JSON null as "parameter absent"); `0` is not a valid limit since FL 138. Before FL 138 the
 *     content edit limit had no "unlimited" and used `0` for no limit, so it is sent as `0` there.
 *   - the `can_*_group` settings: `Json[GroupSettingChangeRequest]`, i.e. `{new, old?}` update values.
 */
import * as z from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import type { Params } from '../encoding.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess, success } from '../schemas/envelope.js';
import { linkifier, realmEmoji } from '../schemas/realm-data.js';
import type { GroupSettingValueUpdate } from '../schemas/groups.js';
import { UnsupportedFeatureError } from '../errors.js';

/** Custom emoji by id. */
export const getCustomEmojiResponse = z.lazy(() => success({ emoji: z.record(z.string(), realmEmoji) }));
/** In processing order (FL 202 made the order editable). */
export const getLinkifiersResponse = z.lazy(() => success({ linkifiers: z.array(linkifier) }));

/** GET /realm/emoji: every custom emoji of the organization, deactivated ones included, by id. */
export const getCustomEmoji = operation({ method: 'GET', path: '/realm/emoji', schema: getCustomEmojiResponse });

/** GET /realm/linkifiers (FL 54): the organization's linkifiers, to apply in the order given. */
export const getLinkifiers = operation({ method: 'GET', path: '/realm/linkifiers', schema: getLinkifiersResponse });

/** Feature levels at which the group-based permissions replaced the older policies. */
export const CAN_MOVE_MESSAGES_BETWEEN_CHANNELS_GROUP_FL = 310;
export const CAN_MOVE_MESSAGES_BETWEEN_TOPICS_GROUP_FL = 316;
export const CAN_RESOLVE_TOPICS_GROUP_FL = 367;
/** Before FL 138 "no content edit limit" was the integer `0`. */
export const UNLIMITED_EDIT_LIMIT_FL = 138;

/** A time limit in seconds (positive), or no limit at all. */
export type MessageTimeLimit = number | 'unlimited';

export interface RealmEditingSettings {
  allow_message_editing?: boolean;
  message_content_edit_limit_seconds?: MessageTimeLimit;
  move_messages_within_stream_limit_seconds?: MessageTimeLimit;
  move_messages_between_streams_limit_seconds?: MessageTimeLimit;
  /** FL 310; replaced `move_messages_between_streams_policy`. */
  can_move_messages_between_channels_group?: GroupSettingValueUpdate;
  /** FL 316; replaced `edit_topic_policy`. */
  can_move_messages_between_topics_group?: GroupSettingValueUpdate;
  /** FL 367; before it, resolving topics followed `can_move_messages_between_topics_group`. */
  can_resolve_topics_group?: GroupSettingValueUpdate;
}

const GROUP_SETTING_LEVELS = [
  ['can_move_messages_between_channels_group', CAN_MOVE_MESSAGES_BETWEEN_CHANNELS_GROUP_FL],
  ['can_move_messages_between_topics_group', CAN_MOVE_MESSAGES_BETWEEN_TOPICS_GROUP_FL],
  ['can_resolve_topics_group', CAN_RESOLVE_TOPICS_GROUP_FL],
] as const;

const updateRealm = endpoint({ method: 'PATCH', path: '/realm', schema: emptySuccess });

/** PATCH /realm (referenced operation), limited to the message editing and moving settings (administrators). */
export async function updateRealmEditingSettings(
  conn: ApiConnection,
  args: RealmEditingSettings,
  opts: RequestOptions = {},
) {
  for (const [name, level] of GROUP_SETTING_LEVELS) {
    if (args[name] !== undefined && !conn.supports(level)) {
      // An older server has no such setting and would ignore it while reporting success.
      throw new UnsupportedFeatureError(`updateRealmEditingSettings with ${name}`, level, conn.effectiveFeatureLevel);
    }
  }
  const params: Params = {
    allow_message_editing: args.allow_message_editing,
    message_content_edit_limit_seconds:
      args.message_content_edit_limit_seconds === 'unlimited' && !conn.supports(UNLIMITED_EDIT_LIMIT_FL)
        ? 0
        : timeLimit(args.message_content_edit_limit_seconds),
    move_messages_within_stream_limit_seconds: timeLimit(args.move_messages_within_stream_limit_seconds),
    move_messages_between_streams_limit_seconds: timeLimit(args.move_messages_between_streams_limit_seconds),
    can_move_messages_between_channels_group: args.can_move_messages_between_channels_group,
    can_move_messages_between_topics_group: args.can_move_messages_between_topics_group,
    can_resolve_topics_group: args.can_resolve_topics_group,
  };
  return send(conn, updateRealm, { params }, opts);
}

/** Response schemas by OpenAPI operation (`PATCH /realm` is absent from the FL 420 OpenAPI file; see the header). */
export const realmResponses = responseTable(updateRealm, getCustomEmoji, getLinkifiers);

/** JSON text of a time limit: `600` or `"unlimited"` (quoted; see the header). */
function timeLimit(v: MessageTimeLimit | undefined): string | undefined {
  return v === undefined ? undefined : JSON.stringify(v);
}
