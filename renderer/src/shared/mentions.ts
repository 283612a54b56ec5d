/**
 * Mentions of the reader marked as Zulip web marks them (`user-mention-me`, drawn stronger than
 * other mentions): a mention of the reader, an @all-style wildcard, an @topic mention, and a
 * mention of a group the reader belongs to (directly or through its subgroups); never a silent
 * mention. Works on the sanitised DOM.
 */
import { reachableGroups } from '../../../common/group-settings.js';

export const MENTION_ME = 'user-mention-me';

/** The groups `userId` belongs to, directly or as a member of a subgroup. */
export function groupsOf(groups: readonly { id: number; members: readonly number[]; direct_subgroup_ids: readonly number[] }[], userId: number | null): Set<number> {
  const out = new Set<number>();
  if (userId === null) return out;
  const byId = new Map(groups.map((g) => [g.id, g]));
  for (const g of groups) {
    const reach = reachableGroups(g.id, (id) => byId.get(id)?.direct_subgroup_ids ?? []);
    if ([...reach].some((id) => byId.get(id)?.members.includes(userId))) out.add(g.id);
  }
  return out;
}

export function markMentionsOfMe(root: HTMLElement, me: number | null, myGroups: ReadonlySet<number>): void {
  for (const el of root.querySelectorAll<HTMLElement>('.user-mention, .user-group-mention, .topic-mention')) {
    const silent = el.classList.contains('silent');
    const user = el.dataset['userId'];
    const group = Number(el.dataset['userGroupId']);
    const mine =
      !silent &&
      (el.classList.contains('topic-mention') || user === '*' || (me !== null && user === String(me)) || (el.classList.contains('user-group-mention') && myGroups.has(group)));
    el.classList.toggle(MENTION_ME, mine);
  }
}
