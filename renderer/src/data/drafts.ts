/**
 * Pure: which engine draft belongs to a composer. The engine keys a draft by its conversation
 * (sync/engine/drafts.ts `draftKey`, mirrored here and checked against it by a test): a channel's
 * topic compared without case, or a DM group's people, sorted, without the signed-in user unless
 * that leaves no one. A new topic not named yet is the channel's topic `""`; a new DM with nobody
 * picked yet is the DM of no one (`dm:`). And the fragment that opens a draft's conversation.
 */
import { topicKey } from '../../../common/topic-key.js';
import type { DraftView } from '../../../sync/protocol/commands.js';
import { hashOfTarget } from './target.js';

/** Where a draft (and a message) goes, as the contract's `saveDraft` takes it (a draft's DM may have nobody yet). */
export type DraftTo = { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };

export function draftKeyOf(to: DraftTo, selfId: number | null): string {
  if (to.type === 'channel') return `channel:${to.channel_id}:${topicKey(to.topic)}`;
  return `dm:${dmOthers(to.user_ids, selfId).sort((a, b) => a - b).join(',')}`;
}

/** The draft of one conversation, if any. */
export function draftFor(drafts: readonly DraftView[], to: DraftTo, selfId: number | null): DraftView | undefined {
  const key = draftKeyOf(to, selfId);
  return drafts.find((d) => draftKeyOf(d.to, selfId) === key);
}

/**
 * The draft a "new topic" composer in a channel picks up again: the newest draft of that channel
 * whose topic the channel does not have yet (the unnamed one included). `drafts` is newest first.
 */
export function newTopicDraft(drafts: readonly DraftView[], channelId: number, existingTopics: readonly string[]): DraftView | undefined {
  const known = new Set(existingTopics.map(topicKey));
  return drafts.find((d) => d.to.type === 'channel' && d.to.channel_id === channelId && (d.to.topic === '' || !known.has(topicKey(d.to.topic))));
}

/** Names for showing and linking a conversation. */
export interface DraftNames {
  selfId: number | null;
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

/** A DM's people as its conversation names them: the others, or oneself alone for notes to self. */
export function dmOthers(userIds: readonly number[], selfId: number | null): number[] {
  const ids = [...new Set(userIds)];
  const others = ids.filter((id) => id !== selfId);
  return others.length > 0 ? others : ids;
}

/** The fragment of a draft's conversation (a new topic: its channel), or null for a DM with nobody yet. */
export function conversationHash(to: DraftTo, names: DraftNames): string | null {
  if (to.type === 'channel') {
    const channelName = names.channelName(to.channel_id) ?? '';
    return hashOfTarget(to.topic === '' ? { kind: 'channel', channelId: to.channel_id, channelName } : { kind: 'topic', channelId: to.channel_id, channelName, topic: to.topic });
  }
  return to.user_ids.length === 0 ? null : hashOfTarget({ kind: 'dm', userIds: dmOthers(to.user_ids, names.selfId) }, names.userName);
}

