/**
 * Pure: the outbox panel's rows in words. Every queued change of every kind says what it changes
 * ("Star 2 messages", "Send to #Verona › lunch"), where (a link into the app when there is a
 * place to go), its state, attempts, next retry, deadline and typed error; and which actions the
 * row offers (retry a failed or conflicting one; discard one not being sent or checked).
 */
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { buildHash, channelSlug, encodeHashComponent } from '../core/hash.js';
import { settingLabel, settingsHref } from '../settings/settings-model.js';

export type PanelFilter = 'all' | 'pending' | 'failed' | 'conflict';

export interface PanelRow {
  readonly id: number;
  readonly what: string;
  /** An in-app link to the thing it changes, when there is one. */
  readonly href: string | null;
  readonly state: OutboxRowView['state'];
  readonly stateLabel: string;
  readonly tone: 'pending' | 'failed' | 'conflict' | 'done';
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly deadlineAt: number | null;
  readonly error: string | null;
  readonly canRetry: boolean;
  readonly canDiscard: boolean;
}

export interface Names {
  channel(id: number): string | undefined;
  user(id: number): string | undefined;
  /** A user group's name (optional: a screen without the groups says "a user group"). */
  group?(id: number): string | undefined;
}

/** What a group permission setting governs, for "Change who can … <group>". */
const GROUP_SETTING_WORDS: Record<string, string> = {
  can_manage_group: 'administer',
  can_mention_group: 'mention',
  can_add_members_group: 'add members to',
  can_remove_members_group: 'remove members from',
  can_join_group: 'join',
  can_leave_group: 'leave',
};

const STATE_LABELS: Record<OutboxRowView['state'], string> = {
  queued: 'Waiting to send',
  sending: 'Sending',
  retry_wait: 'Will retry',
  unknown: 'Checking whether it arrived',
  verifying: 'Checking whether it arrived',
  failed: 'Failed',
  conflict: 'Edited elsewhere meanwhile',
  done: 'Done',
  discarded: 'Discarded',
};

const toneOf = (s: OutboxRowView['state']): PanelRow['tone'] => (s === 'failed' ? 'failed' : s === 'conflict' ? 'conflict' : s === 'done' || s === 'discarded' ? 'done' : 'pending');

const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function channelPlace(names: Names, id: number | undefined, topic: string | undefined): { label: string; href: string | null } {
  if (id === undefined) return { label: 'a channel', href: null };
  const name = names.channel(id) ?? `channel ${id}`;
  const terms = [{ operator: 'channel', operand: channelSlug(id, name), negated: false }];
  if (topic !== undefined) terms.push({ operator: 'topic', operand: topic, negated: false });
  return { label: topic !== undefined ? `#${name} › ${topic === '' ? 'general chat' : topic}` : `#${name}`, href: buildHash({ kind: 'narrow', terms }) };
}

const messageLink = (id: number | undefined) => (id === undefined ? null : buildHash({ kind: 'narrow', terms: [{ operator: 'near', operand: String(id), negated: false }] }));

/** What a row changes, in words, and where that is. */
export function describeRow(r: Pick<OutboxRowView, 'kind' | 'args'>, names: Names): { what: string; href: string | null } {
  const a = rec(r.args);
  const people = (ids: unknown) => (Array.isArray(ids) ? ids.map((u) => (typeof u === 'number' ? (names.user(u) ?? `user ${u}`) : String(u))).join(', ') : 'someone');
  switch (r.kind) {
    case 'message_send': {
      const to = rec(a['to']);
      if (to['type'] === 'direct') return { what: `Send a direct message to ${people(to['user_ids'])}`, href: null };
      const p = channelPlace(names, num(to['stream_id']), str(to['topic']));
      return { what: `Send a message to ${p.label}`, href: p.href };
    }
    case 'message_content_edit':
      return { what: 'Edit a message', href: messageLink(num(a['message_id'])) };
    case 'message_move': {
      const topic = str(a['topic']);
      return { what: topic !== undefined ? `Move a message to the topic “${topic}”` : 'Move a message to another channel', href: messageLink(num(a['message_id'])) };
    }
    case 'message_flags': {
      const n = Array.isArray(a['messages']) ? a['messages'].length : 0;
      const add = a['op'] === 'add';
      const what = a['flag'] === 'starred' ? `${add ? 'Star' : 'Unstar'} ${plural(n, 'message')}` : `Mark ${plural(n, 'message')} as ${add ? 'read' : 'unread'}`;
      return { what, href: n === 1 && Array.isArray(a['messages']) ? messageLink(num(a['messages'][0])) : null };
    }
    case 'message_reaction':
      return { what: `${a['op'] === 'add' ? 'React' : 'Remove the reaction'} :${str(a['emoji_name']) ?? '?'}:`, href: messageLink(num(a['message_id'])) };
    case 'mark_topic_read': {
      const p = channelPlace(names, num(a['stream_id']), str(a['topic_name']));
      return { what: `Mark ${p.label} as read`, href: p.href };
    }
    case 'mark_narrow_read': {
      const terms = Array.isArray(a['narrow']) ? a['narrow'].map(rec) : [];
      const ch = terms.find((t) => t['operator'] === 'channel' || t['operator'] === 'stream');
      if (terms.length === 0) return { what: 'Mark all messages as read', href: null };
      if (ch && terms.length === 1) {
        const p = channelPlace(names, num(ch['operand']), undefined);
        return { what: `Mark ${p.label} as read`, href: p.href };
      }
      return { what: 'Mark a conversation as read', href: null };
    }
    case 'user_topic_set': {
      const p = channelPlace(names, num(a['stream_id']), str(a['topic']));
      const policy = ['Reset notifications of', 'Mute', 'Unmute', 'Follow'][num(a['visibility_policy']) ?? 0] ?? 'Change';
      return { what: `${policy} ${p.label}`, href: p.href };
    }
    case 'saved_snippet_create':
      return { what: `Save the snippet “${str(a['title']) ?? ''}”`, href: null };
    case 'saved_snippet_edit':
      return { what: 'Edit a saved snippet', href: null };
    case 'saved_snippet_delete':
      return { what: 'Delete a saved snippet', href: null };
    case 'user_settings_update':
      return { what: `Change settings: ${Object.keys(a).map(settingLabel).join(', ')}`, href: settingsHref(Object.keys(a)) };
    case 'navigation_view_add': {
      // A built-in view (no name) is added only to pin or unpin it.
      const name = str(a['name']);
      if (name !== undefined) return { what: `Add the view “${name}”`, href: null };
      return { what: `${a['is_pinned'] === false ? 'Unpin' : 'Pin'} the view #${str(a['fragment']) ?? ''}`, href: null };
    }
    case 'navigation_view_edit': {
      const name = str(a['name']);
      const changes = [a['is_pinned'] === true ? 'pin it' : a['is_pinned'] === false ? 'unpin it' : null, name !== undefined ? `rename it “${name}”` : null].filter((x) => x !== null);
      return { what: `Change the view #${str(a['fragment']) ?? ''}${changes.length > 0 ? `: ${changes.join(', ')}` : ''}`, href: null };
    }
    case 'navigation_view_delete':
      return { what: `Remove the view #${str(a['fragment']) ?? ''}`, href: null };
    case 'subscription_set': {
      const list = Array.isArray(a['subscriptions']) ? a['subscriptions'].map((s) => str(rec(s)['name'])).filter((n) => n !== undefined) : [];
      return { what: list.length > 0 ? `Subscribe to ${list.map((n) => `#${n}`).join(', ')}` : 'Subscribe to channels', href: list.length === 1 ? '#channels/all' : null };
    }
    case 'subscription_remove': {
      const list = Array.isArray(a['subscriptions']) ? a['subscriptions'].map(str).filter((n) => n !== undefined) : [];
      return { what: list.length > 0 ? `Unsubscribe from ${list.map((n) => `#${n}`).join(', ')}` : 'Unsubscribe from channels', href: list.length === 1 ? '#channels/all' : null };
    }
    case 'user_group_update':
    case 'user_group_members':
    case 'user_group_permissions':
    case 'user_group_subgroups':
    case 'user_group_reactivate':
      return describeGroupRow(r.kind, a, names, people);
    case 'scheduled_message_create':
      return { what: 'Schedule a message', href: null };
    case 'scheduled_message_edit':
      return { what: 'Change a scheduled message', href: null };
    case 'scheduled_message_delete':
      return { what: 'Cancel a scheduled message', href: null };
    case 'scheduled_message_send_now':
      return { what: 'Send a scheduled message now', href: '#scheduled' };
    default:
      return { what: `A change this app does not know (${r.kind})`, href: null };
  }
}

function describeGroupRow(kind: string, a: Record<string, unknown>, names: Names, people: (ids: unknown) => string): { what: string; href: string | null } {
  const id = num(a['user_group_id']);
  const name = id === undefined ? undefined : names.group?.(id);
  const g = name !== undefined ? `“${name}”` : 'a user group';
  const href = id === undefined ? null : name !== undefined ? `#groups/${id}/${encodeHashComponent(name)}` : `#groups/${id}`;
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  const groups = (ids: unknown) => list(ids).map((x) => (typeof x === 'number' ? (names.group?.(x) ?? `group ${x}`) : String(x))).join(', ');
  switch (kind) {
    case 'user_group_update': {
      const newName = str(a['name']);
      // The list shows the new name already (the change is applied locally): no "rename X to X".
      if (newName !== undefined) return { what: `Rename ${name !== undefined && name !== newName ? g : 'a user group'} to “${newName}”${a['description'] !== undefined ? ' and change its description' : ''}`, href };
      return { what: `Change the description of ${g}`, href };
    }
    case 'user_group_members': {
      const add = list(a['add']);
      const del = list(a['delete']);
      const parts = [...(add.length > 0 ? [`add ${people(add)} to`] : []), ...(del.length > 0 ? [`remove ${people(del)} from`] : [])];
      const text = parts.length === 2 ? `Add ${people(add)} to and remove ${people(del)} from ${g}` : `${parts[0] ?? 'change the members of'} ${g}`;
      return { what: text.charAt(0).toUpperCase() + text.slice(1), href };
    }
    case 'user_group_subgroups': {
      const add = list(a['add']);
      const del = list(a['delete']);
      if (add.length > 0 && del.length === 0) return { what: `Add the subgroup ${groups(add)} to ${g}`, href };
      if (del.length > 0 && add.length === 0) return { what: `Remove the subgroup ${groups(del)} from ${g}`, href };
      return { what: `Change the subgroups of ${g}`, href };
    }
    case 'user_group_permissions': {
      const settings = Object.keys(rec(a['settings'])).map((k) => GROUP_SETTING_WORDS[k] ?? k);
      return { what: `Change who can ${settings.join(', ')} ${g}`, href };
    }
    default:
      return { what: `Reactivate ${g}`, href };
  }
}

export function panelRows(rows: readonly OutboxRowView[], names: Names, filter: PanelFilter): PanelRow[] {
  return rows
    .map((r): PanelRow => {
      const d = describeRow(r, names);
      return {
        id: r.outbox_id,
        what: d.what,
        href: d.href,
        state: r.state,
        stateLabel: STATE_LABELS[r.state],
        tone: toneOf(r.state),
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        deadlineAt: r.deadline_at,
        error: r.last_error?.message ?? null,
        // As the outbox's state machine allows (sync/outbox/states.ts); a waiting row goes with "Retry all now".
        canRetry: r.state === 'failed' || r.state === 'conflict',
        canDiscard: r.state === 'queued' || r.state === 'failed' || r.state === 'conflict' || r.state === 'retry_wait',
      };
    })
    .filter((p) => filter === 'all' || p.tone === filter);
}

/** "in 12 s", "in 3 min", "now" for a time ahead of `now` (UNIX ms). */
export function inWords(at: number, now: number): string {
  const s = Math.ceil((at - now) / 1000);
  if (s <= 0) return 'now';
  if (s < 60) return `in ${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `in ${m} min`;
  return `in ${Math.ceil(m / 60)} h`;
}
