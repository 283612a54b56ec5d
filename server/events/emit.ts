/**
 * State changes and their events commit together: `atomically` runs a function in one SQLite
 * transaction and delivers the events it emitted only after the commit; on an error both the
 * writes and the events are dropped. Every HTTP handler (except long-polls) and the scheduler run
 * through it.
 */
import type { ServerState } from '../state.js';
import type { EventBody, QueueView } from './queues.js';

type Pending = Array<[Iterable<number>, EventBody | ((q: QueueView) => EventBody | readonly EventBody[] | null)]>;
const pendingByState = new WeakMap<ServerState, Pending>();

export function emit(
  srv: ServerState,
  userIds: Iterable<number>,
  body: EventBody | ((q: QueueView) => EventBody | readonly EventBody[] | null),
): void {
  const pending = pendingByState.get(srv);
  if (pending) pending.push([[...userIds], body]);
  else srv.queues.send(userIds, body);
}

export function atomically<T>(srv: ServerState, fn: () => T): T {
  if (pendingByState.has(srv)) return fn(); // nested: the outer call commits and flushes
  const pending: Pending = [];
  pendingByState.set(srv, pending);
  let result: T;
  try {
    result = srv.db.transaction(fn)();
    if (result instanceof Promise) throw new Error('atomically: the function must be synchronous');
  } finally {
    pendingByState.delete(srv);
  }
  for (const [users, body] of pending) srv.queues.send(users, body);
  return result;
}
