/**
 * The unread badge (dock on macOS, launcher on Linux Unity; Electron ignores it elsewhere): the sum
 * over every signed-in organisation of its unread count (unmuted channels and direct messages,
 * Zulip's "all unread"), from the `organisations` query the organisations bar reads too. Main holds
 * its own engine client for this, so the badge stays right while the page is reloading or not
 * subscribed.
 *
 * Recomputed when an `areas` event touches unreads, channels, subscriptions, topic preferences,
 * the accounts or an organisation's count, and on status changes; at most once per `throttleMs`
 * (trailing), since a burst of events (backfill, marking a channel read) should cost one query.
 */
import type { EngineEvent } from '../sync/protocol/commands.js';
import { accountOperations, type Organisation } from '../sync/protocol/accounts.js';
import type { EngineClient } from '../sync/service/index.js';

const AREAS = new Set(['unread', 'channels', 'subscriptions', 'user_topics', 'accounts', 'organisations']);

export interface BadgeOptions {
  readonly service: { connect(push: (e: EngineEvent) => void): EngineClient };
  readonly setBadgeCount: (n: number) => void;
  readonly throttleMs?: number;
  readonly log?: (line: string) => void;
}

/** Unread messages over every organisation. */
export function unreadTotal(orgs: readonly Organisation[]): number {
  let n = 0;
  for (const o of orgs) n += o.unread;
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
    const r = await client.invoke('organisations', {});
    if (closed) return;
    // No account: no badge. (The value was checked by the service; parsed again here for its type.)
    const orgs = r.ok ? accountOperations.organisations.response.safeParse(r.value) : undefined;
    const n = orgs?.success ? unreadTotal(orgs.data) : 0;
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
