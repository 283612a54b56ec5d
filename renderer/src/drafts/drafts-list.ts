/**
 * Pure: the drafts list (`#drafts`, as Zulip web's drafts overlay): newest first, where each one
 * goes as the list says it, and how "Edit" continues it: the conversation's fragment (its composer
 * picks the draft up again), or for a new direct message with nobody picked yet, a new-DM composer
 * over the inbox.
 */
import type { DraftView } from '../../../sync/protocol/commands.js';
import { conversationHash, dmOthers, type DraftNames, type DraftTo } from '../data/drafts.js';

/** Newest first (then by key, so equal times keep one order). */
export function newestFirst<T extends Pick<DraftView, 'key' | 'updated_at'>>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => b.updated_at - a.updated_at || a.key.localeCompare(b.key));
}

/** "#general › lunch", "#general, new topic (no name yet)", "Direct message to Iago, you", "New direct message (nobody picked yet)". */
export function draftWhere(to: DraftTo, names: DraftNames): string {
  if (to.type === 'channel') {
    const channel = `#${names.channelName(to.channel_id) ?? `channel ${to.channel_id}`}`;
    return to.topic === '' ? `${channel}, new topic (no name yet)` : `${channel} › ${to.topic}`;
  }
  if (to.user_ids.length === 0) return 'New direct message (nobody picked yet)';
  const people = dmOthers(to.user_ids, names.selfId).map((id) => (id === names.selfId ? 'yourself' : (names.userName(id) ?? `user ${id}`)));
  return `Direct message to ${people.join(', ')}`;
}

/** How "Edit" continues a draft: open `hash`, and for a DM with nobody picked yet a new-DM composer there. */
export function draftOpening(to: DraftTo, names: DraftNames): { hash: string; newDm: boolean } {
  const hash = conversationHash(to, names);
  return hash === null ? { hash: '#inbox', newDm: true } : { hash, newDm: false };
}
