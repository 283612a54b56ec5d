/**
 * Who may delete which messages, as far as the engine knows the rules (offline too): what the UI
 * offers. The server decides; a refusal is shown on the message in its words.
 *
 * As Zulip (and the reference server, server/model/edit/delete-actions.ts): organization
 * administrators, the realm's `can_delete_any_message_group` or a channel's
 * `can_delete_any_message_group` delete any message; the sender (or a bot's owner) deletes their
 * own if in the realm's or the channel's `can_delete_own_message_group`, within
 * `message_content_delete_limit_seconds` (null: no limit). Unknown settings take Zulip's defaults
 * (administrators; everyone; 600 s).
 */
import type { LocalDb } from '../db/open.js';
import { getChannels } from '../db/queries/channels.js';
import { getRealmValues } from '../db/queries/realm.js';
import type { MessageDeletionView } from '../protocol/commands.js';
import { groupValue, inGroupSetting, ROLE } from './channel-permissions.js';
import { permissionSubject } from './channel-listing.js';

/** Zulip's default `message_content_delete_limit_seconds`. */
const DEFAULT_DELETE_LIMIT_SECONDS = 600;

export function messageDeletion(db: LocalDb, selfUserId: number | undefined): MessageDeletionView {
  const who = permissionSubject(db, selfUserId);
  const r = getRealmValues(db);
  const admin = who.role !== null && who.role <= ROLE.administrator;
  const anyRule = groupValue(r.realm_can_delete_any_message_group);
  const ownRule = groupValue(r.realm_can_delete_own_message_group);
  const limit = r.realm_message_content_delete_limit_seconds;
  const channels = getChannels(db).map(({ channel: c }) => c);
  return {
    user_id: selfUserId ?? null,
    any: admin || inGroupSetting(who, anyRule),
    // Everyone by default (Zulip's `role:everyone`), once the user is known.
    own: ownRule === null ? who.role !== null : inGroupSetting(who, ownRule),
    limit_seconds: limit === undefined ? DEFAULT_DELETE_LIMIT_SECONDS : typeof limit === 'number' && limit > 0 ? limit : null,
    any_in_channels: channels.filter((c) => inGroupSetting(who, c.can_delete_any_message_group)).map((c) => c.stream_id),
    own_in_channels: channels.filter((c) => inGroupSetting(who, c.can_delete_own_message_group)).map((c) => c.stream_id),
  };
}
