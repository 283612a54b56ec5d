/**
 * Pure: a message's reactions as shown under it (one chip per emoji with its count, who reacted,
 * whether one of them is the user), and what a click does. As in Zulip, reactions are the same
 * emoji when their type and code agree, whatever name each person used ("+1" and "thumbs_up").
 */
import type { LocalReaction } from '../../../sync/protocol/messages.js';
import { emojiChar, emojiLabel } from '../shared/emoji.js';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface ReactionGroup {
  /** `type:code`: identity of the emoji. */
  key: string;
  /** The name shown: the first one used for this emoji on the message. */
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  /** People who reacted, in the order they did (each once). */
  userIds: number[];
  /** The user is among them. */
  mine: boolean;
}

const keyOf = (r: Pick<LocalReaction, 'reaction_type' | 'emoji_code'>) => `${r.reaction_type}:${r.emoji_code}`;

/** Chips in the order each emoji first appears on the message. */
export function groupReactions(reactions: readonly LocalReaction[], ownUserId: number | null): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    const key = keyOf(r);
    let g = groups.get(key);
    if (!g) {
      g = { key, emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, userIds: [], mine: false };
      groups.set(key, g);
    }
    if (!g.userIds.includes(r.user_id)) g.userIds.push(r.user_id);
    if (r.user_id === ownUserId) g.mine = true;
  }
  return [...groups.values()];
}

export interface ReactionRequest {
  op: 'add' | 'remove';
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

const asType = (t: string): ReactionType => (t === 'realm_emoji' || t === 'zulip_extra_emoji' ? t : 'unicode_emoji');

/**
 * What choosing `emoji` does on a message: removes the user's own reaction with that emoji when
 * there is one (with the name it was made with, which the server matches), else adds it.
 */
export function reactionToggle(
  reactions: readonly LocalReaction[],
  ownUserId: number | null,
  emoji: { emoji_name: string; emoji_code: string; reaction_type: string },
): ReactionRequest {
  const key = keyOf(emoji);
  const own = reactions.find((r) => r.user_id === ownUserId && keyOf(r) === key);
  if (own) return { op: 'remove', emoji_name: own.emoji_name, emoji_code: own.emoji_code, reaction_type: asType(own.reaction_type) };
  return { op: 'add', emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: asType(emoji.reaction_type) };
}

/** "you", "King Hamlet", "you and King Hamlet", "you, Iago and King Hamlet" (the user first). */
export function reactors(userIds: readonly number[], ownUserId: number | null, name: (id: number) => string | undefined): string {
  const ordered = [...userIds.filter((id) => id === ownUserId), ...userIds.filter((id) => id !== ownUserId)];
  const names = ordered.map((id) => (id === ownUserId ? 'you' : (name(id) ?? `user ${id}`)));
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** What a chip shows: the character for a Unicode emoji, else `:name:`. */
export function reactionGlyph(g: Pick<ReactionGroup, 'emoji_code' | 'emoji_name' | 'reaction_type'>): string {
  return (g.reaction_type === 'unicode_emoji' ? emojiChar(g.emoji_code) : null) ?? `:${g.emoji_name}:`;
}

/** The chip's accessible name: "thumbs up: 2, you and King Hamlet". */
export function reactionLabel(g: ReactionGroup, who: string): string {
  return `${emojiLabel(g.emoji_name)}: ${g.userIds.length}, ${who}`;
}

/** The chip's tooltip, as Zulip words it: "You (click to remove) and King Hamlet reacted with :+1:". */
export function reactionTitle(g: ReactionGroup, who: string): string {
  const sentence = who.charAt(0).toUpperCase() + who.slice(1);
  const withHint = g.mine ? sentence.replace(/^You/, 'You (click to remove)') : sentence;
  return `${withHint} reacted with :${g.emoji_name}:`;
}
