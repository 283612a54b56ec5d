/**
 * Shapes several kinds share, so that a kind module declares only what is its own: a kind without
 * a base, a `send` that is one API call, a `verify` that reads one object back, the usual
 * coalescing rules, and the readers of one server object. Each kind's whole declaration still
 * stands in its own module; these only name the shape it takes.
 */
import { z } from 'zod';
import { getSavedSnippets, getScheduledMessages, getUserGroups, type ApiConnection } from '../../api/index.js';
import type { CoalesceDecision, OutboxKind, PendingIntent, VerifyOutcome } from '../kinds.js';

/**
 * A kind with nothing the user saw to send along (`baseSchema` is `z.null()`, every row's base
 * `null`). Its args' type is its `argsSchema`'s.
 */
export function withoutBase<A, K extends string>(k: Omit<OutboxKind<NoInfer<A>, null, K>, 'baseSchema' | 'argsSchema'> & { readonly argsSchema: z.ZodType<A> }): OutboxKind<A, null, K> {
  return { ...k, baseSchema: z.null() };
}

/** The `send` of a kind that is one API call whose answer the outbox does not need. */
export function oneCall<A>(call: (conn: ApiConnection, a: A) => Promise<unknown>): (conn: ApiConnection, a: A) => Promise<void> {
  return async (conn, a) => {
    await call(conn, a);
  };
}

/**
 * The `verify` of a kind that changes one server object: read it back (`read`; undefined: not
 * there) and say whether it `shows` the change. An object that is gone was not changed by us: a
 * resend fails visibly, which is what the user should see.
 */
export function verifyByReading<A, T>(read: (conn: ApiConnection, a: A) => Promise<T | undefined>, shows: (found: T, a: A, conn: ApiConnection) => boolean): (conn: ApiConnection, a: A) => Promise<VerifyOutcome> {
  return async (conn, a) => {
    const found = await read(conn, a);
    return found !== undefined && shows(found, a, conn) ? 'applied' : 'not_applied';
  };
}

/** The `verify` of a kind that deletes one server object: applied once `read` finds it no more. */
export function verifyGone<A>(read: (conn: ApiConnection, a: A) => Promise<unknown>): (conn: ApiConnection, a: A) => Promise<VerifyOutcome> {
  return async (conn, a) => ((await read(conn, a)) === undefined ? 'applied' : 'not_applied');
}

/** Only the newest value matters: a new intent behind a queued one of `kind` replaces its args. */
export function newestWins(kind: string): (prev: PendingIntent, next: { readonly args: unknown }) => CoalesceDecision {
  return (prev, next) => (prev.kind === kind ? { action: 'merge', args: next.args, base: null } : { action: 'append' });
}

/** A delete behind a still-queued create (`createKind`) of the same object: the two annul each other, nothing is sent. */
export function annulsQueued(createKind: string): (prev: PendingIntent) => CoalesceDecision {
  return (prev) => (prev.kind === createKind ? { action: 'cancel' } : { action: 'append' });
}

/** The server's saved snippet `id`, or undefined. */
export async function serverSnippet(conn: ApiConnection, id: number) {
  return (await getSavedSnippets(conn)).saved_snippets.find((s) => s.id === id);
}

/** The server's scheduled message `id` (a `tmp-N` id finds none), or undefined. */
export async function serverScheduledMessage(conn: ApiConnection, id: number | string) {
  return (await getScheduledMessages(conn)).scheduled_messages.find((m) => m.scheduled_message_id === id);
}

/** The server's user group `id`, deactivated or not, or undefined. */
export async function serverGroup(conn: ApiConnection, id: number) {
  return (await getUserGroups(conn, { include_deactivated_groups: true })).user_groups.find((g) => g.id === id);
}

/** Ids to add and to remove (a group's members or subgroups). */
export interface AddDelete {
  readonly add: readonly number[];
  readonly delete: readonly number[];
}

/** `next` applied after `prev`: the last instruction per id wins, and opposite ones cancel. */
export function netAddDelete(prev: AddDelete, next: AddDelete): { add: number[]; delete: number[] } {
  const add = new Set(prev.add);
  const del = new Set(prev.delete);
  for (const u of next.add) if (!del.delete(u)) add.add(u);
  for (const u of next.delete) if (!add.delete(u)) del.add(u);
  return { add: [...add], delete: [...del] };
}

/** Whether the server's `ids` show the change: every added one there, every removed one gone. */
export function showsAddDelete(ids: readonly number[], a: AddDelete): boolean {
  const now = new Set(ids);
  return a.add.every((u) => now.has(u)) && a.delete.every((u) => !now.has(u));
}

/**
 * Queued add/remove changes of one group (rows of `kind`) merge into their net effect: the server
 * refuses to add what is there or remove what is not, and a merge that nets to nothing cancels the row.
 */
export function mergesNet<A extends AddDelete & { readonly user_group_id: number }>(kind: string, argsSchema: z.ZodType<A>): (prev: PendingIntent, next: { readonly args: A }) => CoalesceDecision {
  return (prev, next) => {
    const p = prev.kind === kind ? argsSchema.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    const n = netAddDelete(p.data, next.args);
    if (n.add.length + n.delete.length === 0) return { action: 'cancel' };
    return { action: 'merge', args: { user_group_id: p.data.user_group_id, ...n }, base: null };
  };
}
