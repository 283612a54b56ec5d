import type { StoreArea } from '../protocol/areas.js';

/**
 * What a write to the local store changed, as the store reports it to the live views. Views do not
 * interpret events: they re-check membership of the touched message ids against their own narrow
 * (so a topic move is "updated" and the view sees it leave or enter), and reload what they show.
 */
export interface StoreChanges {
  /** Messages stored for the first time (new messages, backfill, fetched pages). */
  readonly addedMessageIds: ReadonlySet<number>;
  /** Stored messages whose content, topic, channel, flags, reactions or history changed. */
  readonly updatedMessageIds: ReadonlySet<number>;
  /** Messages deleted (or no longer accessible). */
  readonly removedMessageIds: ReadonlySet<number>;
  /** Other areas touched, for views over them (channels, users, snippets, ...). */
  readonly areas: ReadonlySet<StoreArea>;
}

export type { StoreArea } from '../protocol/areas.js';

/** Accumulates changes during one transaction; `freeze()` hands them to the views after commit. */
export class ChangeCollector {
  readonly added = new Set<number>();
  readonly updated = new Set<number>();
  readonly removed = new Set<number>();
  readonly areas = new Set<StoreArea>();

  messageAdded(id: number): void {
    this.removed.delete(id);
    this.added.add(id);
  }
  messageUpdated(id: number): void {
    if (!this.added.has(id)) this.updated.add(id);
  }
  messageRemoved(id: number): void {
    this.added.delete(id);
    this.updated.delete(id);
    this.removed.add(id);
  }
  touched(area: StoreArea): void {
    this.areas.add(area);
  }
  get empty(): boolean {
    return this.added.size + this.updated.size + this.removed.size + this.areas.size === 0;
  }
  freeze(): StoreChanges {
    return { addedMessageIds: new Set(this.added), updatedMessageIds: new Set(this.updated), removedMessageIds: new Set(this.removed), areas: new Set(this.areas) };
  }
}
