/**
 * Pure: which engine draft belongs to a composer. The engine keys a draft by its conversation
 * (sync/engine/drafts.ts `draftKey`, mirrored here and checked against it by a test): a channel's
 * topic compared without case, or a DM group's people, sorted, without the signed-in user unless
 * that leaves no one. A new topic not named yet is the channel's topic `""`.
 */
import { topicKey } from '../../../common/topic-key.js';
import type { DraftView } from '../../../sync/protocol/commands.js';

/** Where a draft (and a message) goes, as the contract's `saveDraft` takes it. */
export type DraftTo = { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };

export function draftKeyOf(to: DraftTo, selfId: number | null): string {
  if (to.type === 'channel') return `channel:${to.channel_id}:${topicKey(to.topic)}`;
  const all = [...new Set(to.user_ids)];
  const others = all.filter((u) => u !== selfId);
  return `dm:${(others.length > 0 ? others : all).sort((a, b) => a - b).join(',')}`;
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
