/**
 * "Mark as unread from here" tells whoever marks messages read as they are seen (another feature)
 * which messages the user just marked unread, so they stay unread while the view stays open, as
 * Zulip does (it stops marking a view read after that). Plain TypeScript: the read-marking
 * subscribes with `markedUnread.subscribe(({ viewKey, messageIds }) => ...)` and skips those ids
 * (or the whole view) until the view changes.
 */
import { createLatest } from '../kit/latest.js';

export interface MarkedUnread {
  /** The view the user marked them in (its canonical key), if one was open. */
  viewKey: string | null;
  messageIds: readonly number[];
}

export interface MarkedUnreadChannel {
  announce(e: MarkedUnread): void;
  /** The last announcement (a read-marker mounted later still sees it). */
  last(): MarkedUnread | null;
  subscribe(listener: (e: MarkedUnread) => void): () => void;
}

export function createMarkedUnread(): MarkedUnreadChannel {
  const c = createLatest<MarkedUnread>();
  return { announce: c.announce, last: c.latest, subscribe: c.subscribe };
}

export const markedUnread: MarkedUnreadChannel = createMarkedUnread();
