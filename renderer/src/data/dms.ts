/** Pure: a DM conversation's name and message view, for the sidebar and the home views. */
import type { DmConversation } from '../../../sync/protocol/commands.js';
import type { NarrowTarget } from './target.js';

const UNKNOWN_USER = 'Unknown user';

/** The people of a DM conversation by name ("Othello, Iago"); oneself alone for notes to self. */
export function dmNames(c: Pick<DmConversation, 'participants'>): string {
  if (c.participants.length === 0) return UNKNOWN_USER;
  return c.participants.map((p) => p.full_name ?? UNKNOWN_USER).join(', ');
}

/** The message view of a DM conversation: the other participants (oneself alone for notes to self), sorted. */
export function dmTarget(c: Pick<DmConversation, 'participants' | 'user_ids'>): NarrowTarget {
  const ids = c.participants.length > 0 ? c.participants.map((p) => p.user_id) : c.user_ids;
  return { kind: 'dm', userIds: [...new Set(ids)].sort((a, b) => a - b) };
}
