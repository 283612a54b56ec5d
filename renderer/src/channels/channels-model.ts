/**
 * Pure: the channels screen. Which page a `#channels/...` fragment shows (Zulip's
 * `#channels/subscribed`, `#channels/all`, `#channels/notsubscribed`, `#channels/new`, a channel's
 * `#channels/ID/NAME[/TAB]`), the lists and their filter, the outbox state of a channel's
 * subscription (a queued subscribe / unsubscribe: not saved yet, or failed with the server's words),
 * the create form checked into a `createChannel` request, and an `addSubscribers` answer in words.
 */
import type { ChannelCreationView, ChannelListing, commands } from '../../../sync/protocol/commands.js';
import type { OutboxRowOf } from '../../../sync/outbox/registry.js';
import type * as z from 'zod';
import { buildHash, channelSlug, encodeHashComponent } from '../core/hash.js';

export type ChannelsPage =
  | { kind: 'list'; tab: 'subscribed' | 'all' | 'notsubscribed' }
  | { kind: 'new' }
  | { kind: 'channel'; channelId: number }
  | { kind: 'unknown'; rest: string };

/** The page for the components after `#channels` (`rest`, raw). */
export function channelsPage(rest: readonly string[]): ChannelsPage {
  const [head, ...tail] = rest;
  if (head === undefined || head === 'subscribed') return { kind: 'list', tab: 'subscribed' };
  if (head === 'all') return { kind: 'list', tab: 'all' };
  if (head === 'notsubscribed') return { kind: 'list', tab: 'notsubscribed' };
  if (head === 'new') return { kind: 'new' };
  if (/^\d+$/.test(head) && Number(head) > 0) return { kind: 'channel', channelId: Number(head) };
  return { kind: 'unknown', rest: [head, ...tail].join('/') };
}

/** A channel's page, as Zulip web links it (`#channels/5/Denmark/general`); `tab` is Zulip's (general, personal, subscribers). */
export function channelPageHref(c: Pick<ChannelListing, 'channel_id' | 'name'>, tab?: 'general' | 'subscribers'): string {
  return `#channels/${c.channel_id}/${encodeHashComponent(c.name)}${tab ? `/${tab}` : ''}`;
}

/** The channel's messages (`#narrow/channel/5-Denmark`). */
export function channelNarrowHref(c: Pick<ChannelListing, 'channel_id' | 'name'>): string {
  return buildHash({ kind: 'narrow', terms: [{ operator: 'channel', operand: channelSlug(c.channel_id, c.name), negated: false }] });
}

/** The listed channels of a tab, filtered by name or description (case-insensitive); archived ones left out. */
export function listedChannels(all: readonly ChannelListing[], tab: 'subscribed' | 'all' | 'notsubscribed', query: string): ChannelListing[] {
  const q = query.trim().toLowerCase();
  return all.filter(
    (c) =>
      !c.is_archived &&
      (tab === 'all' || (tab === 'subscribed') === c.subscribed) &&
      (q === '' || c.name.toLowerCase().includes(q) || c.description.toLowerCase().includes(q)),
  );
}

export function privacyLabel(c: Pick<ChannelListing, 'invite_only' | 'is_web_public'>): 'Private' | 'Web-public' | 'Public' {
  return c.invite_only ? 'Private' : c.is_web_public ? 'Web-public' : 'Public';
}

export function retentionLabel(days: number | null): string {
  if (days === null) return 'the organization’s default';
  if (days === -1) return 'forever';
  return days === 1 ? '1 day' : `${days} days`;
}

export function topicsPolicyLabel(p: string | null): string {
  switch (p) {
    case 'allow_empty_topic':
      return 'Messages may have no topic';
    case 'disable_empty_topic':
      return 'Every message needs a topic';
    case 'empty_topic_only':
      return 'Messages have no topic';
    default:
      return 'The organization’s rule for topics';
  }
}

const FINISHED = new Set(['done', 'discarded']);

/** The channel names a subscribe / unsubscribe row is about (lower-cased); none for other rows. */
function namesOf(row: OutboxRowOf): string[] {
  if (row.args === null) return [];
  if (row.kind === 'subscribe') return row.args.subscriptions.map((s) => s.name.toLowerCase());
  if (row.kind === 'unsubscribe') return row.args.subscriptions.map((n) => n.toLowerCase());
  return [];
}

export interface SubscriptionState {
  /** `pending`: queued or being sent; `failed`: the server refused (or it gave up): Retry / Discard. */
  status: 'pending' | 'failed';
  /** The newest row's id (Retry / Discard act on it). */
  outboxId: number;
  /** What is being changed: subscribing or unsubscribing. */
  action: 'subscribe' | 'unsubscribe';
  /** The server's words for a failed one. */
  error: string | null;
}

/** The unfinished subscribe / unsubscribe of a channel (the newest one when several are queued), or null. */
export function subscriptionState(rows: readonly OutboxRowOf[], channelName: string): SubscriptionState | null {
  const name = channelName.toLowerCase();
  const mine = rows.filter((r) => !FINISHED.has(r.state) && namesOf(r).includes(name));
  if (mine.length === 0) return null;
  const failed = mine.find((r) => r.state === 'failed' || r.state === 'conflict');
  const row = failed ?? mine[mine.length - 1]!;
  return {
    status: failed ? 'failed' : 'pending',
    outboxId: row.outbox_id,
    action: row.kind === 'unsubscribe' ? 'unsubscribe' : 'subscribe',
    error: failed ? (failed.last_error?.message ?? 'The server did not accept it.') : null,
  };
}

/** The marker beside a channel whose subscription change is not on the server yet. */
export function subscriptionMarker(s: SubscriptionState): string {
  if (s.status === 'failed') return s.action === 'subscribe' ? 'Subscribing failed' : 'Unsubscribing failed';
  return 'not saved yet';
}

// --- Creating a channel --------------------------------------------------------------------------

export type CreateChannelRequest = z.input<(typeof commands)['createChannel']['request']>;
export type AddSubscribersResponse = z.output<(typeof commands)['addSubscribers']['response']>;

export interface CreateForm {
  name: string;
  description: string;
  privacy: 'public' | 'private' | 'web_public';
  /** Private channels only. */
  historyPublic: boolean;
  announce: boolean;
  isDefault: boolean;
  /** `realm_default`, `unlimited` or `days` (then `retentionDays`). */
  retention: 'realm_default' | 'unlimited' | 'days';
  retentionDays: string;
  topicsPolicy: 'inherit' | 'allow_empty_topic' | 'disable_empty_topic';
  /** System group ids; null = the server's default. */
  canAddSubscribersGroup: number | null;
  canAdministerGroup: number | null;
  userIds: readonly number[];
}

export const EMPTY_FORM: CreateForm = {
  name: '',
  description: '',
  privacy: 'public',
  historyPublic: false,
  announce: false,
  isDefault: false,
  retention: 'realm_default',
  retentionDays: '',
  topicsPolicy: 'inherit',
  canAddSubscribersGroup: null,
  canAdministerGroup: null,
  userIds: [],
};

/** The form as a `createChannel` request, or what is wrong with it (checked against what the engine knows). */
export function createChannelRequest(
  f: CreateForm,
  o: ChannelCreationView,
  known: readonly Pick<ChannelListing, 'name'>[],
): { ok: true; request: CreateChannelRequest } | { ok: false; error: string } {
  const name = f.name.trim();
  if (name === '') return { ok: false, error: 'A channel needs a name.' };
  if (o.max_name_length !== null && [...name].length > o.max_name_length) return { ok: false, error: `A channel name has at most ${o.max_name_length} characters.` };
  if (known.some((c) => c.name.toLowerCase() === name.toLowerCase())) return { ok: false, error: `A channel named “${name}” exists already.` };
  if (o.max_description_length !== null && [...f.description].length > o.max_description_length) {
    return { ok: false, error: `A description has at most ${o.max_description_length} characters.` };
  }
  if (f.privacy === 'public' && !o.can_create_public) return { ok: false, error: 'Your organization does not let you create public channels.' };
  if (f.privacy === 'private' && !o.can_create_private) return { ok: false, error: 'Your organization does not let you create private channels.' };
  if (f.privacy === 'web_public' && !o.can_create_web_public) return { ok: false, error: 'Your organization does not let you create web-public channels.' };
  if (f.isDefault && f.privacy === 'private') return { ok: false, error: 'A default channel cannot be private.' };
  let retention: CreateChannelRequest['message_retention_days'];
  if (f.retention === 'unlimited') retention = 'unlimited';
  else if (f.retention === 'days') {
    const days = Number(f.retentionDays.trim());
    if (!/^\d+$/.test(f.retentionDays.trim()) || !Number.isSafeInteger(days) || days < 1) return { ok: false, error: 'Message retention is a whole number of days, at least 1.' };
    retention = days;
  }
  const request: CreateChannelRequest = {
    name,
    description: f.description.trim(),
    invite_only: f.privacy === 'private',
    is_web_public: f.privacy === 'web_public',
    announce: f.announce,
    is_default_stream: f.isDefault,
    user_ids: [...f.userIds],
    ...(f.privacy === 'private' ? { history_public_to_subscribers: f.historyPublic } : {}),
    ...(retention !== undefined ? { message_retention_days: retention } : {}),
    ...(f.topicsPolicy !== 'inherit' ? { topics_policy: f.topicsPolicy } : {}),
    ...(f.canAddSubscribersGroup !== null ? { can_add_subscribers_group: f.canAddSubscribersGroup } : {}),
    ...(f.canAdministerGroup !== null ? { can_administer_channel_group: f.canAdministerGroup } : {}),
  };
  return { ok: true, request };
}

const GROUP_LABELS: Record<string, string> = {
  'role:owners': 'Owners',
  'role:administrators': 'Administrators',
  'role:moderators': 'Moderators',
  'role:fullmembers': 'Full members',
  'role:members': 'Members',
  'role:everyone': 'Everyone, guests included',
  'role:nobody': 'Nobody',
};

/** The system groups a permission select offers, in Zulip's order (narrowest first), with names for people. */
export function groupChoices(groups: ChannelCreationView['system_groups']): Array<{ id: number; label: string }> {
  const order = Object.keys(GROUP_LABELS);
  return groups
    .filter((g) => g.name in GROUP_LABELS)
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    .map((g) => ({ id: g.id, label: GROUP_LABELS[g.name]! }));
}

/** An `addSubscribers` answer, one sentence per channel. */
export function addSubscribersSummary(r: AddSubscribersResponse, nameOf: (userId: number) => string): string[] {
  const names = (ids: readonly number[]) => ids.map(nameOf).join(', ');
  return r.channels.map((c) => {
    if (c.unauthorized) return `#${c.name}: the server did not let you reach this channel; nobody was subscribed.`;
    const parts: string[] = [];
    if (c.subscribed_user_ids.length > 0) parts.push(`subscribed ${names(c.subscribed_user_ids)}`);
    if (c.already_subscribed_user_ids.length > 0) parts.push(`${names(c.already_subscribed_user_ids)} ${c.already_subscribed_user_ids.length === 1 ? 'was' : 'were'} subscribed already`);
    return `#${c.name}: ${parts.length > 0 ? parts.join('; ') : 'nobody to subscribe'}.`;
  });
}

/** People one may pick: active humans, not in `exclude`, matching `query` (name or email), by name; at most `limit`. */
export function pickablePeople<U extends { user_id: number; full_name: string; email: string; is_active: boolean; is_bot: boolean }>(
  users: readonly U[],
  exclude: ReadonlySet<number>,
  query: string,
  limit = 50,
): U[] {
  const q = query.trim().toLowerCase();
  return users
    .filter((u) => u.is_active && !u.is_bot && !exclude.has(u.user_id) && (q === '' || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .sort((a, b) => a.full_name.localeCompare(b.full_name))
    .slice(0, limit);
}
