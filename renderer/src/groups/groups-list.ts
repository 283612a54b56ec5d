/**
 * Pure: the `#groups` places (Zulip web's fragments: `#groups/your`, `#groups/all`, a group's page
 * `#groups/<id>/<name>/<tab>`) and the list each shows: named groups only (system groups follow the
 * roles and appear in the permission pickers), by name, deactivated ones only on request.
 */
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { encodeHashComponent } from '../core/hash.js';
import { isMember, type Group, type GroupsById } from './group-rules.js';

export type GroupsPlace = { readonly kind: 'list'; readonly tab: 'your' | 'all' } | { readonly kind: 'group'; readonly id: number };

export function groupsPlace(rest: readonly string[]): GroupsPlace {
  const head = rest[0];
  if (head !== undefined && /^\d+$/.test(head)) return { kind: 'group', id: Number(head) };
  return { kind: 'list', tab: head === 'all' ? 'all' : 'your' };
}

export const groupHref = (g: Pick<Group, 'id' | 'name'>) => `#groups/${g.id}/${encodeHashComponent(g.name)}`;

export function listedGroups(groups: readonly Group[], all: GroupsById, tab: 'your' | 'all', selfId: number | null, showDeactivated: boolean): Group[] {
  return groups
    .filter((g) => !g.is_system_group && (showDeactivated || !g.deactivated))
    .filter((g) => tab === 'all' || (selfId !== null && isMember(all, selfId, g.id)))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The group's changes not on the server yet (unfinished outbox rows with its entity key). */
export function groupRows(rows: readonly OutboxRowView[], groupId: number): OutboxRowView[] {
  return rows.filter((r) => r.target === `user_group:${groupId}` && r.state !== 'done' && r.state !== 'discarded');
}

export const isFailed = (r: OutboxRowView) => r.state === 'failed' || r.state === 'conflict';

/** What to do about a refused change, beyond the server's words (null: nothing more to say). */
export function refusalHint(r: Pick<OutboxRowView, 'last_error'>): string | null {
  if (r.last_error?.code === 'EXPECTATION_MISMATCH') {
    return 'Someone changed this setting elsewhere after you saw it, so yours was not applied over theirs. Discard to see theirs, then change it again if you still want to.';
  }
  return null;
}

/** The server's objections to a deactivation (CANNOT_DEACTIVATE_GROUP_IN_USE `objections`), in words. */
export function objectionsInWords(details: unknown, groupName: (id: number) => string): string[] {
  const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
  const inner = rec(rec(details)['details']);
  const list = Array.isArray(inner['objections']) ? inner['objections'] : [];
  return list.map((o) => {
    const x = rec(o);
    const settings = Array.isArray(x['settings']) ? x['settings'].join(', ') : '';
    if (x['type'] === 'subgroup') return `It is a subgroup of ${(Array.isArray(x['supergroup_ids']) ? x['supergroup_ids'] : []).map((id) => groupName(Number(id))).join(', ')}.`;
    if (x['type'] === 'channel') return `Channel ${String(x['channel_id'])} uses it: ${settings}.`;
    if (x['type'] === 'user_group') return `The group ${groupName(Number(x['group_id']))} uses it: ${settings}.`;
    if (x['type'] === 'realm') return `The organization’s settings use it: ${settings}.`;
    return 'Something else uses it.';
  });
}
