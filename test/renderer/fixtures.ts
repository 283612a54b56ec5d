/**
 * Example data for the renderer's tests: the contract's shapes from test/support/eg-contract.ts
 * (the one source of example data), with the defaults these tests were written against
 * (messages in general › greetings).
 */
import type { ChannelSummary, LocalMessage, NarrowSnapshot, TopicSummary } from '../../sync/protocol/index.js';
import { channelSummary, general, localMessage, narrowSnapshot, topicSummary } from '../support/eg-contract.js';

export { outboxRow } from '../support/eg-contract.js';

export function message(id: number, over: Partial<LocalMessage> = {}): LocalMessage {
  return localMessage({ id, channel: general, topic: 'greetings', ...over });
}

export function snapshot(ids: number[], over: Partial<NarrowSnapshot> = {}): NarrowSnapshot {
  return narrowSnapshot(
    ids.map((id) => message(id)),
    { key: `channel:${general.stream_id}`, ...over },
  );
}

export function topic(name: string, over: Partial<TopicSummary> = {}): TopicSummary {
  return topicSummary({ topic: name, ...over });
}

export function channel(id: number, name: string, over: Partial<ChannelSummary> = {}): ChannelSummary {
  return channelSummary({ channel_id: id, name, ...over });
}
