/**
 * Automated notices after moves and resolves, sent by the Notification Bot like Zulip's
 * send_message_moved_breadcrumbs and maybe_send_resolve_topic_notifications. The bot is a system
 * bot user created on first use (`notification-bot@zulip.com`).
 *
 * Zulip sends these with internal_send_stream_message, which may post to private channels the bot
 * is not subscribed to; here the bot is subscribed for the duration of the send inside the same
 * transaction (no event, never visible), so the normal send path applies. Notices start read for
 * the acting user (and, for resolve notices, for everyone but the users Zulip leaves them unread
 * for); those read marks reach clients as `update_message_flags` events.
 */
import { emit } from '../../events/emit.js';
import { JsonableError } from '../../http/errors.js';
import type { ServerState } from '../../state.js';
import { isSubscribed, type ChannelRow } from '../access.js';
import { FLAG } from '../flags.js';
import { sendMessage } from '../message-send.js';
import { getUserByEmail, insertUser, ROLE, type UserRow } from '../users.js';

export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';

/** The Notification Bot (created on first use; Zulip's bot_type 1, "generic bot"). */
export function notificationBot(srv: ServerState): UserRow {
  const existing = getUserByEmail(srv, NOTIFICATION_BOT_EMAIL);
  if (existing) return existing;
  const bot = insertUser(srv, { email: NOTIFICATION_BOT_EMAIL, full_name: 'Notification Bot', role: ROLE.member, is_bot: true });
  srv.db.prepare('UPDATE users SET bot_type = 1 WHERE id = ?').run(bot.id);
  return { ...bot, bot_type: 1 };
}

/** Zulip's silent_mention_syntax_for_user. */
export const silentMention = (u: Pick<UserRow, 'id' | 'full_name'>) => `@_**${u.full_name}|${u.id}**`;

/** Zulip's encode_hash_component: percent-encoding with `.` for `%`. */
function encodeHashComponent(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

/** Zulip's stream_message_url: `#narrow/channel/<id>-<name>/topic/<topic>/with/<message id>`. */
export function messageUrl(srv: ServerState, ch: Pick<ChannelRow, 'id' | 'name'>, topic: string, messageId: number): string {
  const channel = `${ch.id}-${encodeHashComponent(ch.name.replace(/ /g, '-'))}`;
  return `${srv.config.realmUrl}/#narrow/channel/${channel}/topic/${encodeHashComponent(topic)}/with/${messageId}`;
}

/**
 * Zulip's get_stream_topic_link_syntax: `#**channel>topic**`, or a plain Markdown link when a name
 * contains characters that syntax cannot carry.
 */
export function topicLink(srv: ServerState, ch: Pick<ChannelRow, 'id' | 'name'>, topic: string): string {
  if (!/[`>*$]|\]|\[/.test(ch.name + topic)) return `#**${ch.name}>${topic}**`;
  const url = `${srv.config.realmUrl}/#narrow/channel/${ch.id}-${encodeHashComponent(ch.name.replace(/ /g, '-'))}/topic/${encodeHashComponent(topic)}`;
  const esc = (s: string) => s.replace(/([\\[\]`*$])/g, '\\$1');
  return `[#${esc(ch.name)} > ${esc(topic)}](${url})`;
}

/** Sets `read` for these users' rows and tells their clients (update_message_flags add). */
function markRead(srv: ServerState, messageId: number, userIds: Iterable<number>): void {
  for (const uid of userIds) {
    const r = srv.db.prepare('UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id = ? AND flags & ? = 0').run(FLAG.read, uid, messageId, FLAG.read);
    if (r.changes > 0) emit(srv, [uid], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [messageId], all: false });
  }
}

export interface NoticeOptions {
  /** The user whose action caused the notice: it starts read for them. */
  readonly actor: UserRow;
  /** When set, the notice starts unread only for these users (resolve notices). */
  readonly unreadOnlyFor?: ReadonlySet<number>;
}

/**
 * Posts a Notification Bot message to a channel topic; returns its id, or null when the topic
 * cannot take it (e.g. the channel's topics policy refuses it): like Zulip's internal sends, a
 * notice that cannot be sent is skipped rather than failing the edit.
 */
export function postNotice(srv: ServerState, ch: ChannelRow, topic: string, content: string, opts: NoticeOptions): number | null {
  const bot = notificationBot(srv);
  const temporary = !isSubscribed(srv, bot.id, ch.id);
  if (temporary) srv.db.prepare('INSERT OR REPLACE INTO subscriptions (user_id, channel_id, active) VALUES (?, ?, 1)').run(bot.id, ch.id);
  let id: number;
  try {
    id = sendMessage(srv, bot, { to: { channelId: ch.id, topic }, content, client: 'Internal' });
  } catch (e) {
    if (e instanceof JsonableError) return null;
    throw e;
  } finally {
    if (temporary) srv.db.prepare('DELETE FROM subscriptions WHERE user_id = ? AND channel_id = ?').run(bot.id, ch.id);
  }
  const holders = srv.db.prepare('SELECT user_id FROM user_messages WHERE message_id = ?').pluck().all(id) as number[];
  const readFor = opts.unreadOnlyFor ? holders.filter((uid) => !opts.unreadOnlyFor!.has(uid) || uid === opts.actor.id) : [opts.actor.id];
  markRead(srv, id, readFor);
  return id;
}
