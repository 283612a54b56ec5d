/**
 * The unread badge (dock on macOS, launcher on Linux Unity; Electron ignores it elsewhere): the sum
 * of unread messages in subscribed, unmuted channels, from the `channels` query. Main holds its own
 * engine client for this, so the badge stays right while the page is reloading or not subscribed.
 *
 * Recomputed when an `areas` event touches unreads, channels, subscriptions, topic preferences or
 * the open account, and on status changes; at most once per `throttleMs` (trailing), since a burst
 * of events (backfill, marking a channel read) should cost one query.
 */
import { queries, type ChannelSummary, type EngineEvent } from '../sync/protocol/commands.js';
import type { EngineClient } from '../sync/service/index.js';

const AREAS = new Set(['unread', 'channels', 'subscriptions', 'user_topics', 'accounts']);

export interface BadgeOptions {
  readonly service: { connect(push: (e: EngineEvent) => void): EngineClient };
  readonly setBadgeCount: (n: number) => void;
  readonly throttleMs?: number;
  readonly log?: (line: string) => void;
}

/** Unread messages the user would want counted: subscribed channels that are not muted. */
export function unreadTotal(channels: readonly ChannelSummary[]): number {
  let n = 0;
  for (const c of channels) if (c.is_subscribed && !c.is_muted) n += c.unread_count;
  return n;
}

export function startUnreadBadge(opts: BadgeOptions): { refresh(): Promise<void>; close(): void } {
  const throttleMs = opts.throttleMs ?? 1000;
  const log = opts.log ?? ((l: string) => console.warn(l));
  let shown = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let lastState: string | undefined;

  const refresh = async (): Promise<void> => {
    const r = await client.invoke('channels', {});
    if (closed) return;
    // No open account: no badge. (The value was checked by the service; parsed again here for its type.)
    const channels = r.ok ? queries.channels.response.safeParse(r.value) : undefined;
    const n = channels?.success ? unreadTotal(channels.data) : 0;
    if (n === shown) return;
    shown = n;
    opts.setBadgeCount(n);
  };

  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      refresh().catch((e: unknown) => log(`unread badge: ${String(e)}`));
    }, throttleMs);
  };

  const client = opts.service.connect((e) => {
    if (e.type === 'areas' ? e.areas.some((a) => AREAS.has(a)) : e.type === 'status' && e.status.state !== lastState) {
      if (e.type === 'status') lastState = e.status.state;
      schedule();
    }
  });
  schedule();

  return {
    refresh,
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      client.close();
    },
  };
}
