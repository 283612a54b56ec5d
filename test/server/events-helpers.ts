/** Shared helpers for the event-driven conformance tests: register a queue, drain its events. */
import { expect } from 'vitest';
import type { Event } from '../../server/events/queues.js';
import type { ParamValue, TestServer } from './harness.js';

/** POST /register for `who` (extra register parameters as given); returns the queue id. */
export async function registerQueue(t: TestServer, who: string, params: Record<string, ParamValue | undefined> = {}): Promise<string> {
  const r = await t.as(who).post('/register', params);
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.queue_id as string;
}

/** Every pending event of a queue (non-blocking, nothing acknowledged). */
export async function pendingEvents(t: TestServer, who: string, queueId: string): Promise<Event[]> {
  const r = await t.as(who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(r.json.result, JSON.stringify(r.json)).toBe('success');
  return r.json.events as Event[];
}

/** The events without their `id`, for whole-object comparisons. */
export const withoutIds = (events: readonly Event[]) => events.map(({ id: _id, ...rest }) => rest);

export const nowSeconds = (t: TestServer) => Math.floor(t.clock.now() / 1000);
