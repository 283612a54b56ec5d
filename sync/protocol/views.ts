/**
 * Live narrow views over IPC: the request that opens one, the snapshot it starts from, and the
 * change sets that follow. Applying each change set in order to the snapshot (`applyChangeSet`)
 * yields exactly the engine's current view, so the renderer never re-reads a whole page.
 */
import * as z from 'zod';
import { localMessageSchema, type LocalMessage } from './messages.js';

const int = z.number().int();

/** A narrow term in the modern wire encoding (`{operator, operand, negated?}`). */
export const narrowTermWireSchema = z.lazy(() => z.object({
  operator: z.string().min(1),
  operand: z.union([z.string(), int, z.array(int)]),
  negated: z.boolean().optional(),
}));
export type NarrowTermWire = z.output<typeof narrowTermWireSchema>;

export const narrowAnchorSchema = z.union([int.nonnegative(), z.enum(['newest', 'oldest', 'first_unread'])]);
export type NarrowAnchor = z.output<typeof narrowAnchorSchema>;

export const narrowRequestSchema = z.lazy(() => z.object({
  narrow: z.array(narrowTermWireSchema),
  anchor: narrowAnchorSchema,
  /** Messages before / after the anchor (the anchor itself is shown in addition when it matches). */
  before: int.min(0).max(5000),
  after: int.min(0).max(5000),
}));
export type NarrowRequest = z.output<typeof narrowRequestSchema>;

/**
 * Per side: `complete` = no message of the narrow is missing between the anchor and the last
 * message shown on that side; `found_end` = moreover, nothing lies beyond it (the narrow's oldest
 * / newest message is shown). Incomplete sides fill in when the server answers (or never, offline).
 */
export const sideStateSchema = z.object({ complete: z.boolean(), found_end: z.boolean() });
export type SideState = z.output<typeof sideStateSchema>;

export const narrowSnapshotSchema = z.lazy(() => z.object({
  /** Canonical key of the narrow (the same filter written differently has the same key). */
  key: z.string(),
  /** The anchor resolved to an id (null: the narrow is empty or the anchor was `newest`/`oldest`). */
  anchor_id: int.nullable(),
  /** Ascending by id. */
  messages: z.array(localMessageSchema),
  before: sideStateSchema,
  after: sideStateSchema,
}));
export type NarrowSnapshot = z.output<typeof narrowSnapshotSchema>;

export const narrowChangeSetSchema = z.lazy(() => z.object({
  /** Messages that entered the view: new, moved in, or loaded by loadOlder / loadNewer. */
  added: z.array(localMessageSchema),
  /** Messages still in the view whose shown state changed. */
  updated: z.array(localMessageSchema),
  /** Ids that left the view: deleted or moved out. */
  removed: z.array(int),
  /** The side states after this change, when they changed. */
  before: sideStateSchema.optional(),
  after: sideStateSchema.optional(),
}));
export type NarrowChangeSet = z.output<typeof narrowChangeSetSchema>;

/** Pure: the snapshot after a change set (removed, then updated replaced, added inserted, by id). */
export function applyChangeSet(s: NarrowSnapshot, cs: NarrowChangeSet): NarrowSnapshot {
  const byId = new Map<number, LocalMessage>(s.messages.map((m) => [m.id, m]));
  for (const id of cs.removed) byId.delete(id);
  for (const m of cs.updated) byId.set(m.id, m);
  for (const m of cs.added) byId.set(m.id, m);
  const messages = [...byId.values()].sort((a, b) => a.id - b.id);
  return { ...s, messages, before: cs.before ?? s.before, after: cs.after ?? s.after };
}

export function isEmptyChangeSet(cs: NarrowChangeSet): boolean {
  return cs.added.length + cs.updated.length + cs.removed.length === 0 && cs.before === undefined && cs.after === undefined;
}
