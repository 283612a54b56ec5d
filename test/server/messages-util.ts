/** Helpers shared by the messages conformance tests: ids by name, direct event queues. */
import type { Event, QueueOptions } from '../../server/events/queues.js';
import type { TestServer } from './harness.js';

import { channelId } from './harness.js';
export { channelId };

export interface TestQueue {
  readonly id: string;
  /** Events received so far (does not wait). */
  events(): Promise<Event[]>;
  /** Events of one type received so far. */
  ofType(type: string): Promise<Event[]>;
}

/** A queue registered directly on the server's queues (independent of POST /register). */
export function openQueue(t: TestServer, who: string, opts: Partial<QueueOptions> = {}): TestQueue {
  const userId = t.userId(who);
  const q = t.server.state.queues.register(userId, {
    eventTypes: null,
    capabilities: { empty_topic_name: true, bulk_message_deletion: true },
    applyMarkdown: true,
    clientGravatar: false,
    allPublicStreams: false,
    narrow: [],
    ...opts,
  });
  const events = () => t.server.state.queues.poll(q.id, userId, undefined, true);
  return {
    id: q.id,
    events,
    ofType: async (type) => (await events()).filter((e) => e.type === type),
  };
}

let counter = 0;
/** A topic name no other test uses. */
export const uniqueTopic = (prefix = 'topic') => `${prefix} ${++counter} ${Math.random().toString(36).slice(2, 7)}`;

/** POST /messages as `who` (parameters as given, Zulip-encoded by the harness). */
export function sendAs(t: TestServer, who: string, params: Record<string, unknown>) {
  return t.as(who).post('/messages', params as Record<string, string>);
}

/** GET /messages/{id} as `who` (empty topics as ""), returning the message object. */
export async function fetchMessageAs(t: TestServer, who: string, id: number, extra: Record<string, boolean> = {}) {
  const r = await t.as(who).get(`/messages/${id}`, { allow_empty_topic_name: true, ...extra });
  return r.json.message as Record<string, unknown>;
}
