/**
 * The channels screen's reads, from the store alone (offline too): every channel the user can see
 * with its subscription state and what the user may do there (`allChannels`), and what creating a
 * channel may offer (`channelCreation`). Queued subscribes and unsubscribes are already applied to
 * the store (their kinds' local apply), so `subscribed` shows them at once, and queued changes of
 * the user's own channel settings (`personal`) likewise.
 */
import type { Subscription } from '../api/index.js';
import type { LocalDb } from '../db/open.js';
import { getChannels } from '../db/queries/channels.js';
import { getUserGroups } from '../db/queries/groups.js';
import { getRealmValues } from '../db/queries/realm.js';
import { getUser } from '../db/queries/users.js';
import type { ChannelCreationView, ChannelListing, SubscriptionSettings } from '../protocol/commands.js';
import { canAddSubscribers, canCreate, canSubscribeSelf, groupValue, ROLE, type PermissionSubject } from './channel-permissions.js';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);

/** The signed-in user as the permission rules see them (role null before the first sync). */
export function permissionSubject(db: LocalDb, selfUserId: number | undefined): PermissionSubject {
  const role = selfUserId === undefined ? undefined : getUser(db, selfUserId)?.user.role;
  return {
    userId: selfUserId ?? -1,
    role: typeof role === 'number' ? role : null,
    groups: new Map(getUserGroups(db).map((g) => [g.id, g])),
  };
}

/** A subscription's own settings; a notification setting the server left out follows the default (null). */
function personalSettings(s: Subscription): SubscriptionSettings {
  return {
    is_muted: s.is_muted,
    pin_to_top: s.pin_to_top,
    desktop_notifications: s.desktop_notifications ?? null,
    audible_notifications: s.audible_notifications ?? null,
    push_notifications: s.push_notifications ?? null,
    email_notifications: s.email_notifications ?? null,
    wildcard_mentions_notify: s.wildcard_mentions_notify ?? null,
  };
}

/** Every known channel by name (case-insensitive, then id), with the user's state and rights. */
export function allChannels(db: LocalDb, selfUserId: number | undefined): ChannelListing[] {
  const who = permissionSubject(db, selfUserId);
  const realmRule = groupValue(getRealmValues(db).realm_can_add_subscribers_group);
  const list = getChannels(db).map(({ channel: c, subscription: s }) => ({
    channel_id: c.stream_id,
    name: c.name,
    description: c.description,
    rendered_description: c.rendered_description,
    invite_only: c.invite_only,
    is_web_public: c.is_web_public,
    history_public_to_subscribers: c.history_public_to_subscribers,
    is_archived: c.is_archived,
    subscribed: s !== null,
    color: s?.color ?? null,
    personal: s === null ? null : personalSettings(s),
    subscriber_count: c.subscriber_count ?? null,
    date_created: c.date_created ?? null,
    creator_id: c.creator_id ?? null,
    message_retention_days: c.message_retention_days,
    topics_policy: c.topics_policy ?? null,
    can_subscribe: s !== null || canSubscribeSelf(who, c),
    can_add_subscribers: canAddSubscribers(who, c, realmRule),
  }));
  return list.sort((a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a.channel_id - b.channel_id;
  });
}

export function channelCreation(db: LocalDb, selfUserId: number | undefined): ChannelCreationView {
  const who = permissionSubject(db, selfUserId);
  const r = getRealmValues(db);
  const webPublic = r.realm_enable_spectator_access === true;
  return {
    // Zulip's defaults when the server did not say: members create public and private channels, owners web-public ones.
    can_create_public: canCreate(who, groupValue(r.realm_can_create_public_channel_group), ROLE.member),
    can_create_private: canCreate(who, groupValue(r.realm_can_create_private_channel_group), ROLE.member),
    can_create_web_public: webPublic && canCreate(who, groupValue(r.realm_can_create_web_public_channel_group), ROLE.owner),
    web_public_enabled: webPublic,
    is_admin: who.role !== null && who.role <= ROLE.administrator,
    is_owner: who.role === ROLE.owner,
    system_groups: getUserGroups(db)
      .filter((g) => g.is_system_group)
      .map((g) => ({ id: g.id, name: g.name })),
    max_name_length: num(r.max_stream_name_length),
    max_description_length: num(r.max_stream_description_length),
  };
}
