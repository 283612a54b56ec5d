/**
 * POST /users/me/subscriptions (spec "subscribe to channels", docs/zulip-behaviour.md
 * "POST /users/me/subscriptions"): subscribes the caller or
 * the `principals`, creating the channels that do not exist with the creation parameters.
 * Everything is validated before anything is written.
 */
import * as z from 'zod';
import { emit } from '../events/emit.js';
import { badRequest, invalidParam, JsonableError } from '../http/errors.js';
import { parseJsonParam } from '../http/json.js';
import type { Params } from '../http/params.js';
import { getChannelByName, type ChannelRow } from '../model/access.js';
import { apiChannel, CHANNEL_PERMISSION_SETTINGS, CHANNEL_SETTINGS_WITHOUT_EVERYONE, hasChannelPermission, type ChannelPermissionSetting } from '../model/channels.js';
import { userHasPermission, validateGroupSettingValue, type GroupSettingValue } from '../model/groups.js';
import { getRealm, type RealmSettings } from '../model/realm.js';
import { bulkSubscribe, createChannel, hasContentAccess } from '../model/subscriptions.js';
import { activeUserIds, getUser, getUserByEmail, isAdmin, isGuest, ROLE, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import type { Ctx } from './context.js';

/** Zulip's settings.MAX_BULK_NEW_SUBSCRIPTION_MESSAGES (register's max_bulk_new_subscription_messages). */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

export const groupSettingValueSchema = z.union([
  z.number().int(),
  z.object({ direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) }).strict(),
]);

const subscriptionsSchema = z.array(z.object({ name: z.string(), description: z.string().optional(), color: z.string().optional() }));
const principalsSchema = z.union([z.array(z.number().int()), z.array(z.string())]);
const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

export const ownerRequired = () => new JsonableError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner', 400);

/** A parameter Zulip declares as Json[str]: accepts the JSON-encoded string and, leniently, the raw one. */
function jsonOrRawString(params: Params, name: string): unknown {
  const raw = params.raw(name);
  if (raw === undefined) return undefined;
  const parsed = parseJsonParam(name, raw);
  return parsed.ok ? parsed.value : raw;
}

/** message_retention_days: "realm_default" → null, "unlimited" → -1, or a positive number of days. */
export function parseRetentionDays(value: unknown): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  throw badRequest(`Bad value for 'message_retention_days': ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

/** check_stream_name: non-empty, within max_stream_name_length, no control characters. */
export function checkChannelName(name: string, realm: RealmSettings): void {
  if (name === '') throw badRequest("Channel name can't be empty.");
  if ([...name].length > realm.max_stream_name_length) throw badRequest(`Channel name too long (limit: ${realm.max_stream_name_length} characters).`);
  const chars = [...name];
  const bad = chars.findIndex((c) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(c));
  if (bad >= 0) throw badRequest(`Invalid character in channel name, at position ${bad + 1}.`);
}

/** principals (ids or emails) → active users; anything else is 400 BAD_REQUEST (FL 208). */
export function resolvePrincipals(srv: ServerState, principals: readonly (number | string)[]): UserRow[] {
  const out = new Map<number, UserRow>();
  for (const p of principals) {
    const u = typeof p === 'number' ? getUser(srv, p) : getUserByEmail(srv, p);
    if (!u || !u.is_active) throw badRequest('No such user');
    out.set(u.id, u);
  }
  return [...out.values()];
}

/** Reads and validates a channel group-setting parameter (groups exist, are active, allowed for the setting). */
function readChannelSetting(srv: ServerState, params: Params, name: ChannelPermissionSetting): GroupSettingValue | undefined {
  const v = params.json(name, groupSettingValueSchema);
  if (v === undefined) return undefined;
  const forbidden = CHANNEL_SETTINGS_WITHOUT_EVERYONE.includes(name) ? ['role:internet', 'role:everyone'] : ['role:internet'];
  validateGroupSettingValue(srv, name, v, { forbidden });
  return v;
}

/** Whether the user may subscribe others to an (accessible) channel: realm or channel permission, or administering it. */
export function canAddSubscribers(srv: ServerState, user: UserRow, ch: ChannelRow): boolean {
  if (isGuest(user)) return false;
  if (isAdmin(user)) return true;
  if (userHasPermission(srv, user.id, getRealm(srv).can_add_subscribers_group)) return true;
  return hasChannelPermission(srv, user.id, ch, 'can_administer_channel_group') || hasChannelPermission(srv, user.id, ch, 'can_add_subscribers_group');
}

export function subscribe(ctx: Ctx): Record<string, unknown> {
  const { srv, params, user } = ctx;
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  const subscriptions = params.reqJson('subscriptions', subscriptionsSchema);
  const principals = params.json('principals', principalsSchema);
  const fatal = params.bool('authorization_errors_fatal') ?? true;
  params.bool('announce'); // No new-channel announcements channel is configured: nothing to announce.
  const inviteOnly = params.bool('invite_only') ?? false;
  const isWebPublic = params.bool('is_web_public') ?? false;
  const isDefault = params.bool('is_default_stream') ?? false;
  const historyPublic = params.bool('history_public_to_subscribers');
  const retentionRaw = jsonOrRawString(params, 'message_retention_days');
  const topicsPolicyRaw = jsonOrRawString(params, 'topics_policy');
  const folderId = params.int('folder_id');
  const sendMessages = params.bool('send_new_subscription_messages') ?? true;
  const permissions: Partial<Record<ChannelPermissionSetting, GroupSettingValue>> = {};
  for (const s of CHANNEL_PERMISSION_SETTINGS) {
    const v = readChannelSetting(srv, params, s);
    if (v !== undefined) permissions[s] = v;
  }

  const realm = getRealm(srv);
  let topicsPolicy: string | undefined;
  if (topicsPolicyRaw !== undefined) {
    if (typeof topicsPolicyRaw !== 'string' || !(TOPICS_POLICIES as readonly string[]).includes(topicsPolicyRaw)) {
      throw invalidParam('topics_policy', topicsPolicyRaw, 'Invalid topics_policy');
    }
    topicsPolicy = topicsPolicyRaw;
  }
  const retention = retentionRaw === undefined ? null : parseRetentionDays(retentionRaw);
  if (folderId !== undefined) throw badRequest('Invalid channel folder ID');

  // The requested channels, by name (trimmed; the first spelling of a name wins).
  const wanted = new Map<string, { name: string; description: string }>();
  for (const s of subscriptions) {
    const name = s.name.trim();
    checkChannelName(name, realm);
    const description = (s.description ?? '').replace(/\n/g, ' ');
    if ([...description].length > realm.max_stream_description_length) {
      throw badRequest(`Channel description too long (limit: ${realm.max_stream_description_length} characters).`);
    }
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { name, description });
  }
  const existing: ChannelRow[] = [];
  const toCreate: Array<{ name: string; description: string }> = [];
  for (const w of wanted.values()) {
    const ch = getChannelByName(srv, w.name);
    if (ch) existing.push(ch);
    else toCreate.push(w);
  }
  if (toCreate.length > 0) checkCreationPermissions(srv, user, realm, { inviteOnly, isWebPublic, isDefault, retention });

  const targets = principals && principals.length > 0 ? resolvePrincipals(srv, principals) : [user];
  const subscribingOthers = targets.some((u) => u.id !== user.id);

  const unauthorized = existing.filter((ch) => !hasContentAccess(srv, user, ch));
  if (unauthorized.length > 0 && fatal) throw badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  const authorized = existing.filter((ch) => !unauthorized.includes(ch));
  if (subscribingOthers && authorized.some((ch) => !canAddSubscribers(srv, user, ch))) throw badRequest('Insufficient permission');

  const created = toCreate.map((c) =>
    createChannel(srv, user, {
      name: c.name,
      description: c.description,
      invite_only: inviteOnly,
      is_web_public: isWebPublic,
      // Zulip: public channels always share history; private ones default to protected history.
      history_public_to_subscribers: inviteOnly ? (historyPublic ?? false) : true,
      message_retention_days: retention,
      topics_policy: topicsPolicy ?? 'inherit',
      is_default: isDefault,
      permissions,
    }),
  );
  if (isDefault && created.length > 0) emitDefaultStreams(srv);

  const result = bulkSubscribe(srv, targets, [...authorized, ...created]);
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  for (const [u, ch] of result.subscribed) (subscribed[String(u.id)] ??= []).push(ch.name);
  for (const [u, ch] of result.alreadySubscribed) (already[String(u.id)] ??= []).push(ch.name);
  return {
    subscribed,
    already_subscribed: already,
    ...(fatal ? {} : { unauthorized: unauthorized.map((c) => c.name) }),
    ...(sendMessages ? { new_subscription_messages_sent: notificationsSent(result.subscribed, user, created, targets.length) } : {}),
  };
}

/**
 * Zulip sends Notification Bot DMs to users someone else subscribed to existing channels (up to
 * MAX_BULK_NEW_SUBSCRIPTION_MESSAGES subscribers). This server has no Notification Bot, so it
 * reports `true` only when no such DM was needed.
 */
function notificationsSent(subscribed: ReadonlyArray<[UserRow, ChannelRow]>, actor: UserRow, created: readonly ChannelRow[], count: number): boolean {
  if (count > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) return false;
  const createdIds = new Set(created.map((c) => c.id));
  return !subscribed.some(([u, ch]) => u.id !== actor.id && u.is_bot === 0 && !createdIds.has(ch.id));
}

function checkCreationPermissions(
  srv: ServerState,
  user: UserRow,
  realm: RealmSettings,
  o: { inviteOnly: boolean; isWebPublic: boolean; isDefault: boolean; retention: number | null },
): void {
  if (o.inviteOnly && !userHasPermission(srv, user.id, realm.can_create_private_channel_group)) throw badRequest('Insufficient permission');
  if (!o.inviteOnly && !userHasPermission(srv, user.id, realm.can_create_public_channel_group)) throw badRequest('Insufficient permission');
  if (o.isDefault && !isAdmin(user)) throw badRequest('Insufficient permission');
  if (o.inviteOnly && o.isDefault) throw badRequest('A default channel cannot be private.');
  if (o.isWebPublic) {
    if (!realm.enable_spectator_access) throw badRequest('Web-public channels are not enabled.');
    if (!userHasPermission(srv, user.id, realm.can_create_web_public_channel_group)) throw badRequest('Insufficient permission');
  }
  if (o.retention !== null && user.role !== ROLE.owner) throw ownerRequired();
}

/** `default_streams` event: the realm's default channels, to everyone. */
export function emitDefaultStreams(srv: ServerState): void {
  const rows = srv.db.prepare('SELECT * FROM channels WHERE is_default = 1 AND is_archived = 0 ORDER BY id').all() as ChannelRow[];
  emit(srv, activeUserIds(srv), { type: 'default_streams', default_streams: rows.map((c) => apiChannel(srv, c)) });
}
