/**
 * Event queues, like Zulip's Tornado queues: one per registered client, numbered events,
 * long-poll with heartbeats, acknowledgement by `last_event_id`, and garbage collection of queues
 * nobody has polled for `idleQueueTimeoutSeconds` (then `BAD_EVENT_QUEUE_ID`).
 *
 * Events are produced once per state change and shaped per queue: `send` takes either an event
 * object or a function of the queue (capabilities such as `empty_topic_name` or
 * `bulk_message_deletion`, `apply_markdown`, `client_gravatar`) returning the event(s) or null.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { JsonableError } from '../http/errors.js';

export interface ClientCapabilities {
  readonly notification_settings_null?: boolean;
  readonly bulk_message_deletion?: boolean;
  readonly user_avatar_url_field_optional?: boolean;
  readonly stream_typing_notifications?: boolean;
  readonly user_settings_object?: boolean;
  readonly linkifier_url_template?: boolean;
  readonly user_list_incomplete?: boolean;
  readonly include_deactivated_groups?: boolean;
  readonly archived_channels?: boolean;
  readonly empty_topic_name?: boolean;
  readonly simplified_presence_events?: boolean;
}

export interface QueueOptions {
  /** Event types delivered; null = all. */
  readonly eventTypes: readonly string[] | null;
  readonly capabilities: ClientCapabilities;
  readonly applyMarkdown: boolean;
  readonly clientGravatar: boolean;
  readonly allPublicStreams: boolean;
  /** register's `narrow` ([[operator, operand]]): filters message events only. */
  readonly narrow: ReadonlyArray<readonly [string, string]>;
}

export type EventBody = { readonly type: string } & Readonly<Record<string, unknown>>;
export type Event = EventBody & { readonly id: number };

export interface QueueView {
  readonly id: string;
  readonly userId: number;
  readonly options: QueueOptions;
}

interface Waiter {
  resolve(events: Event[]): void;
  timer: NodeJS.Timeout;
}

class Queue implements QueueView {
  readonly events: Event[] = [];
  nextId = 0;
  lastAccessMs: number;
  waiter: Waiter | undefined;
  constructor(
    readonly id: string,
    readonly userId: number,
    readonly options: QueueOptions,
    now: number,
  ) {
    this.lastAccessMs = now;
  }
}

export const badEventQueue = (queueId: string) =>
  new JsonableError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

export class EventQueues {
  private readonly queues = new Map<string, Queue>();
  private gcTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly cfg: { longPollSeconds: number; idleQueueTimeoutSeconds: number },
  ) {}

  /** Runs garbage collection every `intervalMs` of real time (the clock decides who is idle). */
  startGc(intervalMs = 30_000): void {
    this.gcTimer = setInterval(() => this.gc(), intervalMs);
    this.gcTimer.unref();
  }

  register(userId: number, options: QueueOptions): QueueView & { lastEventId: number } {
    const id = `${this.clock.now()}:${randomBytes(6).toString('hex')}`;
    const q = new Queue(id, userId, options, this.clock.now());
    this.queues.set(id, q);
    return { id, userId, options, lastEventId: -1 };
  }

  /** The queue, if it exists, belongs to the user and is not expired. */
  get(queueId: string, userId: number): QueueView {
    return this.live(queueId, userId);
  }

  private live(queueId: string, userId: number): Queue {
    this.gc();
    const q = this.queues.get(queueId);
    if (!q || q.userId !== userId) throw badEventQueue(queueId);
    return q;
  }

  delete(queueId: string, userId: number): void {
    const q = this.live(queueId, userId);
    this.answer(q, []);
    this.queues.delete(queueId);
  }

  queuesOf(userId: number): QueueView[] {
    return [...this.queues.values()].filter((q) => q.userId === userId);
  }

  /** All live queues (for events every user receives). */
  all(): QueueView[] {
    return [...this.queues.values()];
  }

  /**
   * Deliver an event to every queue of the given users that subscribed to its type. The body may
   * be computed per queue; returning null skips that queue.
   */
  send(userIds: Iterable<number>, body: EventBody | ((q: QueueView) => EventBody | readonly EventBody[] | null)): void {
    const users = new Set(userIds);
    for (const q of this.queues.values()) {
      if (!users.has(q.userId)) continue;
      const produced = typeof body === 'function' ? body(q) : body;
      if (produced === null) continue;
      const list: readonly EventBody[] = Array.isArray(produced) ? produced : [produced as EventBody];
      for (const e of list) {
        if (q.options.eventTypes && !q.options.eventTypes.includes(e.type)) continue;
        q.events.push({ ...e, id: q.nextId++ });
      }
      if (q.waiter && q.events.length > 0) this.answer(q, q.events.slice());
    }
  }

  /**
   * GET /events: acknowledge everything up to `lastEventId`, then answer with the pending events,
   * or wait for some (a heartbeat after the long-poll period). Resolves early with [] on close.
   */
  poll(queueId: string, userId: number, lastEventId: number | undefined, dontBlock: boolean, signal?: AbortSignal): Promise<Event[]> {
    const q = this.live(queueId, userId);
    q.lastAccessMs = this.clock.now();
    if (lastEventId !== undefined) {
      while (q.events.length > 0 && q.events[0]!.id <= lastEventId) q.events.shift();
    }
    if (q.events.length > 0 || dontBlock) return Promise.resolve(q.events.slice());
    // A newer poll replaces an older one (Zulip answers the old one empty).
    this.answer(q, []);
    return new Promise<Event[]>((resolve) => {
      const timer = setTimeout(() => {
        q.events.push({ type: 'heartbeat', id: q.nextId++ });
        this.answer(q, q.events.slice());
      }, this.cfg.longPollSeconds * 1000);
      q.waiter = { resolve, timer };
      signal?.addEventListener(
        'abort',
        () => {
          if (q.waiter?.resolve === resolve) this.answer(q, []);
        },
        { once: true },
      );
    });
  }

  private answer(q: Queue, events: Event[]): void {
    const w = q.waiter;
    if (!w) return;
    q.waiter = undefined;
    q.lastAccessMs = this.clock.now();
    clearTimeout(w.timer);
    w.resolve(events);
  }

  /** Drop queues idle for longer than the timeout (a connected long-poll counts as activity). */
  gc(): void {
    const cutoff = this.clock.now() - this.cfg.idleQueueTimeoutSeconds * 1000;
    for (const [id, q] of this.queues) {
      if (!q.waiter && q.lastAccessMs < cutoff) this.queues.delete(id);
    }
  }

  /** Answer every open long-poll (empty) and forget all queues: server shutdown. */
  close(): void {
    if (this.gcTimer) clearInterval(this.gcTimer);
    for (const q of this.queues.values()) this.answer(q, []);
    this.queues.clear();
  }
}
