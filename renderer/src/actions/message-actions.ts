/**
 * Pure: what a message's actions need to know or build. Links to a message and to a conversation
 * (Zulip's `#narrow/.../near/ID`, built by the router), the text "Quote and reply" puts in the
 * composer (as Zulip web writes it: web/src/compose_reply.ts), which messages "Mark as unread from
 * here" marks, which move mode a message's position suggests, who is editing a message, and what
 * the user's role allows.
 */
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { MessageDeletionView } from '../../../sync/protocol/commands.js';
import { dmPeers } from '../data/narrow-reducer.js';
import { hashOfTarget, type NarrowTarget } from '../data/target.js';
import type { PropagateMode } from '../shared/move-form.js';

/** The conversation a message belongs to, as a view (optionally opened at the message). */
export function conversationTarget(m: LocalMessage, ownUserId: number | null, near?: number): NarrowTarget | null {
  const at = near === undefined ? {} : { near };
  if (m.type === 'channel') return m.channel_id === null ? null : { kind: 'topic', channelId: m.channel_id, channelName: m.channel_name ?? '', topic: m.topic, ...at };
  return { kind: 'dm', userIds: dmPeers(m, ownUserId), ...at };
}

/** The realm's web address without a trailing slash ("" when unknown: links stay fragments). */
const realmBase = (realmUrl: string | null) => (realmUrl ?? '').replace(/\/+$/, '');

/** A full link to a view of this realm, as Zulip writes them: `https://realm/#narrow/...`. */
export function realmLink(realmUrl: string | null, hash: string): string {
  return `${realmBase(realmUrl)}/${hash}`;
}

/** The permanent link to a message in its conversation (`…/near/ID`), or null without one. */
export function messageLink(m: LocalMessage, realmUrl: string | null, ownUserId: number | null, userName?: (id: number) => string | undefined): string | null {
  const t = conversationTarget(m, ownUserId, m.id);
  return t === null ? null : realmLink(realmUrl, hashOfTarget(t, userName));
}

/** A fence of backticks longer than any run of three or more inside `text` (Zulip's get_unused_fence). */
export function unusedFence(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Characters that break Zulip's `#**channel>topic**` syntax; a Markdown link is used instead. */
const UNSAFE_IN_TOPIC_LINK = /[`>*&[\]]|\$\$/;

export interface QuoteNames {
  realmUrl: string | null;
  ownUserId: number | null;
  /** The channel's current name, if known. */
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

/**
 * The text "Quote and reply" inserts: a silent mention of the sender, a link to the message, where
 * it was said, and the raw Markdown in a quote block.
 *
 *   @_**Iago|5** [said](https://realm/#narrow/channel/3-Verona/topic/lunch/near/42) in #**Verona>lunch**:
 *   ```quote
 *   the text
 *   ```
 */
export function quoteText(m: LocalMessage, raw: string, names: QuoteNames): string {
  const mention = `@_**${m.sender_full_name}|${m.sender_id}**`;
  const link = messageLink(m, names.realmUrl, names.ownUserId, names.userName) ?? '';
  let where: string;
  if (m.type === 'channel' && m.channel_id !== null) {
    const channel = names.channelName(m.channel_id) ?? m.channel_name ?? String(m.channel_id);
    const topicHash = hashOfTarget({ kind: 'topic', channelId: m.channel_id, channelName: channel, topic: m.topic });
    where = UNSAFE_IN_TOPIC_LINK.test(channel) || UNSAFE_IN_TOPIC_LINK.test(m.topic) ? `[#${channel} > ${m.topic}](${realmLink(names.realmUrl, topicHash)})` : `#**${channel}>${m.topic}**`;
    where = `in ${where}`;
  } else {
    // Zulip names the other recipients (the sender's peers in a group, else the sender's partner).
    const peers = m.dm_participants.filter((p) => p.id !== m.sender_id);
    const who = peers.length > 0 ? peers : m.dm_participants;
    where = `to ${who.map((p) => `@_**${names.userName(p.id) ?? p.full_name}|${p.id}**`).join(', ')}`;
  }
  const fence = unusedFence(raw);
  return `${mention} [said](${link}) ${where}:\n${fence}quote\n${raw}\n${fence}`;
}

/**
 * Messages "Mark as unread from here" changes: this one and every later one loaded in the view that
 * is read now (at most `max`, the contract's limit per command), ascending.
 */
export function unreadFromHere(messages: readonly Pick<LocalMessage, 'id' | 'flags'>[], fromId: number, max = 5000): number[] {
  return messages
    .filter((m) => m.id >= fromId && m.flags.includes('read'))
    .map((m) => m.id)
    .sort((a, b) => a - b)
    .slice(0, max);
}

/**
 * The move mode Zulip suggests for a message by where it stands in its topic: the first message
 * moves the whole topic, the last moves alone, one in between moves with those after it.
 * `isFirst` / `isLast` say whether it is the topic's first / last message as far as is known.
 */
export function suggestedPropagate(isFirst: boolean, isLast: boolean): PropagateMode {
  if (isFirst) return 'change_all';
  if (isLast) return 'change_one';
  return 'change_later';
}

/** Whether `m` is the first / last message of its topic among `messages`, given what the view knows of its ends. */
export function topicPlacement(
  messages: readonly Pick<LocalMessage, 'id' | 'channel_id' | 'topic' | 'type'>[],
  m: Pick<LocalMessage, 'id' | 'channel_id' | 'topic'>,
  ends: { oldestShown: boolean; newestShown: boolean },
): { isFirst: boolean; isLast: boolean } {
  const key = m.topic.toLowerCase();
  const same = messages.filter((x) => x.type === 'channel' && x.channel_id === m.channel_id && x.topic.toLowerCase() === key).map((x) => x.id);
  if (same.length === 0) return { isFirst: false, isLast: false };
  return { isFirst: ends.oldestShown && Math.min(...same) === m.id, isLast: ends.newestShown && Math.max(...same) === m.id };
}

/** "Hamlet is editing…", "Hamlet and Iago are editing…", "3 people are editing…"; null when nobody else is. */
export function editingText(userIds: readonly number[], ownUserId: number | null, name: (id: number) => string | undefined): string | null {
  const others = userIds.filter((id) => id !== ownUserId);
  if (others.length === 0) return null;
  if (others.length > 2) return `${others.length} people are editing…`;
  const names = others.map((id) => name(id) ?? 'Someone');
  return names.length === 1 ? `${names[0]} is editing…` : `${names[0]} and ${names[1]} are editing…`;
}

/**
 * Organization roles (the API's numbers) and what they allow by Zulip's default settings: members
 * and above move messages and resolve topics, administrators delete topics. The realm may be
 * stricter; the server then refuses and the refusal is shown in its words.
 */
export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;

export function canMoveMessages(role: number | null): boolean {
  return role !== null && role <= ROLE.member;
}

export function canResolveTopics(role: number | null): boolean {
  return role !== null && role <= ROLE.member;
}

/** A message still being sent has no server id yet: nothing can be done to it but wait (or edit it). */
export function isSent(m: Pick<LocalMessage, 'id'>): boolean {
  return m.id < 2 ** 52;
}

/**
 * Whether to offer "Delete message" (the engine's `messageDeletion` rules; the server has the last
 * word): anyone allowed to delete any message, realm-wide or in its channel; else the sender,
 * allowed to delete their own, within the realm's limit (`now`: UNIX seconds). A message still
 * being sent has nothing to delete yet.
 */
export function canDeleteMessage(m: Pick<LocalMessage, 'id' | 'sender_id' | 'channel_id' | 'timestamp'>, p: MessageDeletionView | null, now: number): boolean {
  if (p === null || !isSent(m)) return false;
  const inChannel = (ids: readonly number[]) => m.channel_id !== null && ids.includes(m.channel_id);
  if (p.any || inChannel(p.any_in_channels)) return true;
  if (p.user_id === null || m.sender_id !== p.user_id || !(p.own || inChannel(p.own_in_channels))) return false;
  return p.limit_seconds === null || now - m.timestamp <= p.limit_seconds;
}

export function canDeleteTopics(role: number | null): boolean {
  return role !== null && role <= ROLE.administrator;
}
