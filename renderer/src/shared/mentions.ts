/**
 * Mentions of the reader marked as Zulip web marks them (`user-mention-me`, drawn stronger than
 * other mentions): a mention of the reader, an @all-style wildcard, an @topic mention, and a
 * mention of a group the reader belongs to (directly or through its subgroups); never a silent
 * mention. Works on the sanitised DOM.
 */
export const MENTION_ME = 'user-mention-me';

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
