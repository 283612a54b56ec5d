/**
 * Verify-by-reading for per-user state that has no GET of its own (topic preferences, settings):
 * register a throwaway queue that fetches only the wanted keys, read them, and delete the queue so
 * verifying never leaves queues behind on the server.
 */
import { deleteEventQueue, registerQueue, type ApiConnection, type RegisterResponse } from '../../api/index.js';

export async function readState(conn: ApiConnection, fetchEventTypes: readonly string[]): Promise<RegisterResponse> {
  const res = await registerQueue(conn, { fetch_event_types: fetchEventTypes, event_types: ['heartbeat'] });
  if (res.queue_id) {
    // Best effort: an unreleased queue expires on its own; the answer we read is what matters.
    await deleteEventQueue(conn, { queue_id: res.queue_id }).catch(() => undefined);
  }
  return res;
}
