/**
 * GET /realm/emoji and POST /realm/emoji/{emoji_name} (a multipart upload of one image: the realm's
 * custom emoji, model/realm-emoji.ts), GET /realm/linkifiers (none; see model/realm.ts), and
 * PATCH /realm, limited to the message editing, moving and deleting settings (spec Events 2) and who
 * may add subscribers to channels (`can_add_subscribers_group`): administrators
 * only; time limits are seconds, or "unlimited" / null for no limit; group settings take an update
 * value {new, old?} or a plain group-setting value. One `realm` op `update_dict` event with
 * property "default" carries every changed setting to everyone.
 */
import { groupSettingEquals } from '../../common/group-settings.js';
import * as z from 'zod';
import { emit } from '../events/emit.js';
import { badRequest, JsonableError } from '../http/errors.js';
import { parseJsonParam } from '../http/json.js';
import type { Params } from '../http/params.js';
import { validateGroupSettingValue, type GroupSettingValue } from '../model/groups.js';
import { getRealm, realmLinkifiers, setRealmSettings, type RealmSettings } from '../model/realm.js';
import { addRealmEmoji, realmEmoji, realmEmojiImage } from '../model/realm-emoji.js';
import { REALM_ID } from '../model/uploads.js';
import { SERVER_EMOJI_DATA_PATH } from '../model/register-realm.js';
import { unicodeEmoji } from '../../common/emoji.js';
import { RawResponse } from '../http/raw.js';
import { apiGroupSettingValue } from '../model/user-groups.js';
import { activeUserIds, isAdmin } from '../model/users.js';
import type { ServerState } from '../state.js';
import { publicRoute, route, type ApiRouter, type Ctx } from './context.js';
import { groupSettingValueSchema } from './subscribe.js';
import { adminRequired } from './users.js';

const LIMIT_SETTINGS = ['message_content_edit_limit_seconds', 'message_content_delete_limit_seconds', 'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds'] as const;
const GROUP_SETTINGS = [
  'can_move_messages_between_topics_group',
  'can_move_messages_between_channels_group',
  'can_resolve_topics_group',
  'can_mention_many_users_group',
  'can_add_subscribers_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
] as const;
type LimitSetting = (typeof LIMIT_SETTINGS)[number];
type GroupSetting = (typeof GROUP_SETTINGS)[number];

const groupChangeSchema = z.union([z.object({ new: groupSettingValueSchema, old: groupSettingValueSchema.optional() }).strict(), groupSettingValueSchema]);

/** A time limit: a positive number of seconds, or "unlimited" / null (no limit). `undefined` when absent. */
function readLimit(params: Params, name: LimitSetting): number | null | undefined {
  const raw = params.raw(name);
  if (raw === undefined) return undefined;
  const parsed = parseJsonParam(name, raw);
  const v: unknown = parsed.ok ? parsed.value : raw; // Lenient: a raw `unlimited`.
  if (v === null || v === 'unlimited') return null;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  throw badRequest(`Bad value for '${name}': ${raw}`);
}

function updateRealm({ srv, params, user }: Ctx) {
  if (!isAdmin(user)) throw adminRequired();
  const allowEditing = params.bool('allow_message_editing');
  const readReceipts = params.bool('enable_read_receipts');
  const embeds = params.bool('inline_url_embed_preview');
  const limits = new Map<LimitSetting, number | null>();
  for (const name of LIMIT_SETTINGS) {
    const v = readLimit(params, name);
    if (v !== undefined) limits.set(name, v);
  }
  const groups = new Map<GroupSetting, z.output<typeof groupChangeSchema>>();
  for (const name of GROUP_SETTINGS) {
    const v = params.json(name, groupChangeSchema);
    if (v !== undefined) groups.set(name, v);
  }

  const realm = getRealm(srv);
  const changed: Partial<RealmSettings> = {};
  if (allowEditing !== undefined && allowEditing !== realm.allow_message_editing) changed.allow_message_editing = allowEditing;
  if (readReceipts !== undefined && readReceipts !== realm.enable_read_receipts) changed.enable_read_receipts = readReceipts;
  if (embeds !== undefined && embeds !== realm.inline_url_embed_preview) changed.inline_url_embed_preview = embeds;
  for (const [name, v] of limits) if (realm[name] !== v) changed[name] = v;
  for (const [name, change] of groups) {
    const { next, old } = typeof change === 'object' && 'new' in change ? { next: change.new, old: change.old } : { next: change as GroupSettingValue, old: undefined };
    const current = apiGroupSettingValue(srv, realm[name]);
    if (old !== undefined && !groupSettingEquals(old, current)) {
      throw new JsonableError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400, { field_name: 'old' });
    }
    if (groupSettingEquals(next, current)) continue;
    validateGroupSettingValue(srv, name, next, { forbidden: ['role:internet'] });
    changed[name] = next;
  }
  if (Object.keys(changed).length > 0) {
    setRealmSettings(srv, changed);
    emitRealmChange(srv, changed);
  }
  return {};
}

function emitRealmChange(srv: ServerState, changed: Partial<RealmSettings>): void {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changed)) {
    data[k] = k.endsWith('_group') ? apiGroupSettingValue(srv, v as GroupSettingValue) : v;
  }
  emit(srv, activeUserIds(srv), { type: 'realm', op: 'update_dict', property: 'default', data });
}

export function registerRealmRoutes(r: ApiRouter): void {
  route(r, 'PATCH', '/realm', updateRealm);
  route(r, 'GET', '/realm/emoji', ({ srv }) => ({ emoji: realmEmoji(srv) }));
  route(r, 'POST', '/realm/emoji/:emoji_name', ({ srv, user, params, path }) => {
    const files = params.files;
    if (files.length !== 1) throw badRequest('You must upload exactly one file.');
    params.has(files[0]!.field);
    addRealmEmoji(srv, user.id, path.emoji_name ?? '', files[0]!);
    return {};
  });
  route(r, 'GET', '/realm/linkifiers', ({ srv }) => ({ linkifiers: realmLinkifiers(srv) }));
}

/** The body of the server's emoji name table (built once: the table never changes while running). */
let emojiApiJson: Buffer | undefined;

/**
 * GET /user_avatars/{realm_id}/emoji/images/{file}: a custom emoji's image, public as in Zulip
 * (outside /api/v1). GET /static/generated/emoji/emoji_api.json: the names this server accepts per
 * Unicode emoji code, canonical first (`{code_to_names}`, register's `server_emoji_data_url`).
 */
export function registerRealmEmojiFileRoutes(r: ApiRouter): void {
  publicRoute(r, 'GET', '/user_avatars/:realm_id_str/emoji/images/:file', ({ srv, path }) => {
    const image = path.realm_id_str === String(REALM_ID) ? realmEmojiImage(srv, path.file ?? '') : undefined;
    if (!image) throw new JsonableError('BAD_REQUEST', 'File not found', 404);
    return new RawResponse(image.data, {
      'content-type': image.mimeType,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=86400',
    });
  });
  publicRoute(r, 'GET', SERVER_EMOJI_DATA_PATH, () => {
    emojiApiJson ??= Buffer.from(JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmoji().map((e) => [e.code, e.names])) }), 'utf8');
    return new RawResponse(emojiApiJson, { 'content-type': 'application/json', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' });
  });
}
