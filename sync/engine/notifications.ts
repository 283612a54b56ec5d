/**
 * Which new messages deserve a desktop notification, as Zulip decides it (zerver/lib/
 * notification_data.py, web/src/message_notifications.ts), from the message event's flags and the
 * user's settings as this device holds them:
 *
 *   direct message          `enable_desktop_notifications`
 *   mention, alert word     `enable_desktop_notifications` (a personal mention even in a muted topic)
 *   @all / @topic           `wildcard_mentions_notify` (the channel's override, else the user's),
 *                           not in a muted topic or channel
 *   followed topic          `enable_followed_topic_desktop_notifications`
 *   channel message         the channel's `desktop_notifications`, else
 *                           `enable_stream_desktop_notifications`; not in a muted topic or channel
 *
 * Never one's own message, nor one that arrives already read (a muted sender's, say). Messages that
 * arrive together (the stream catching up after the laptop slept or was offline) give one summary
 * instead of a burst. Pure over the database; the session calls it after each applied batch.
 */
import type { ZulipEvent } from '../api/index.js';
import { htmlText } from '../../common/html-text.js';
import { isTopicMuted, VISIBILITY } from '../../common/topic-visibility.js';
import type { LocalDb } from '../db/open.js';
import { getChannel } from '../db/queries/channels.js';
import { getTopicVisibility, getUserSettings } from '../db/queries/personal.js';
import type { NotificationItem } from '../protocol/commands.js';

/** More than this many in one batch: one summary instead. */
export const SUMMARY_AFTER = 3;
const BODY_MAX = 150;

type MessageEvent = Extract<ZulipEvent, { type: 'message' }>;

const setting = (settings: Record<string, unknown>, name: string, fallback: boolean): boolean => (typeof settings[name] === 'boolean' ? (settings[name] as boolean) : fallback);

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= BODY_MAX ? t : `${t.slice(0, BODY_MAX - 1)}…`;
}

/** Why a message notifies, or null. */
export function notificationReason(db: LocalDb, e: MessageEvent, selfUserId: number, settings: Record<string, unknown>): NotificationItem['reason'] | null {
  const m = e.message;
  const flags = new Set(e.flags);
  if (m.sender_id === selfUserId || flags.has('read')) return null;
  const desktop = setting(settings, 'enable_desktop_notifications', true);
  if (m.type === 'private') return desktop ? 'dm' : null;
  const personal = flags.has('mentioned') || flags.has('has_alert_word');
  if (personal) return desktop ? 'mention' : null;
  const channelId = m.stream_id;
  if (channelId === undefined) return null;
  const sub = getChannel(db, channelId)?.subscription ?? null;
  const policy = getTopicVisibility(db, channelId, m.subject);
  if (isTopicMuted({ is_muted: sub?.is_muted ?? false }, { visibility_policy: policy })) return null;
  if (flags.has('stream_wildcard_mentioned') || flags.has('topic_wildcard_mentioned') || flags.has('wildcard_mentioned')) {
    const wildcard = sub?.wildcard_mentions_notify ?? setting(settings, 'wildcard_mentions_notify', true);
    if (wildcard && desktop) return 'mention';
  }
  if (policy === VISIBILITY.followed && setting(settings, 'enable_followed_topic_desktop_notifications', true)) return 'followed';
  const channelDesktop = sub?.desktop_notifications ?? setting(settings, 'enable_stream_desktop_notifications', false);
  return channelDesktop ? 'channel' : null;
}

/** Whether the notification stays silent, by the user's audible settings for its reason. */
function silentFor(db: LocalDb, e: MessageEvent, reason: NotificationItem['reason'], settings: Record<string, unknown>): boolean {
  if (reason === 'dm' || reason === 'mention') return !setting(settings, 'enable_sounds', true);
  if (reason === 'followed') return !setting(settings, 'enable_followed_topic_audible_notifications', true);
  const sub = e.message.stream_id === undefined ? null : (getChannel(db, e.message.stream_id)?.subscription ?? null);
  return !(sub?.audible_notifications ?? setting(settings, 'enable_stream_audible_notifications', false));
}

function itemOf(db: LocalDb, e: MessageEvent, reason: NotificationItem['reason'], settings: Record<string, unknown>, selfUserId: number): NotificationItem {
  const m = e.message;
  const common = { message_id: m.id, reason, sender: m.sender_full_name, silent: silentFor(db, e, reason, settings) };
  const text = clip(htmlText(m.content));
  if (m.type === 'private') {
    const others = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== selfUserId) : [];
    const group = others.length > 1;
    const showContent = setting(settings, 'pm_content_in_desktop_notifications', true);
    return {
      ...common,
      title: group ? `${m.sender_full_name} (to ${others.map((r) => r.full_name).join(', ')})` : m.sender_full_name,
      body: showContent ? text : `New direct message from ${m.sender_full_name}`,
      target: { kind: 'dm', user_ids: others.map((r) => r.id).sort((a, b) => a - b) },
    };
  }
  const channel = typeof m.display_recipient === 'string' ? m.display_recipient : '';
  return {
    ...common,
    title: `#${channel} > ${m.subject}`,
    body: `${m.sender_full_name}: ${text}`,
    target: { kind: 'topic', channel_id: m.stream_id ?? 0, channel_name: channel, topic: m.subject },
  };
}

export interface NotificationBatch {
  readonly items: NotificationItem[];
  /** Set instead of items when more than SUMMARY_AFTER arrived at once. */
  readonly summary: { readonly count: number; readonly senders: string[] } | null;
}

/** The notifications of a batch of applied events (empty when none deserves one). */
export function notificationsOf(db: LocalDb, events: readonly ZulipEvent[], selfUserId: number): NotificationBatch {
  const settings = getUserSettings(db);
  const items: NotificationItem[] = [];
  for (const e of events) {
    if (e.type !== 'message') continue;
    const reason = notificationReason(db, e, selfUserId, settings);
    if (reason !== null) items.push(itemOf(db, e, reason, settings, selfUserId));
  }
  if (items.length <= SUMMARY_AFTER) return { items, summary: null };
  const senders = [...new Set(items.map((i) => i.sender))];
  return { items: [], summary: { count: items.length, senders } };
}
