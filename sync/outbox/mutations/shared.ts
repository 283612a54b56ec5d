/**
 * Shapes several kinds share, so that a kind module declares only what is its own: a kind without
 * a base, a `send` that is one API call, a `verify` that reads one object back, the usual
 * coalescing rules, the server objects several kinds change (user groups, saved snippets,
 * scheduled messages, navigation views) and `objectKind`, the kind that changes one of them with
 * one request. Each kind's whole declaration still stands in its own module; these only name the
 * shape it takes.
 */
import * as z from 'zod';
import { getNavigationViews, getSavedSnippets, getScheduledMessages, getUserGroups, type ApiConnection } from '../../api/index.js';
import type { ChangeCollector, StoreArea } from '../../db/changes.js';
import type { LocalDb } from '../../db/open.js';
import type { CoalesceDecision, Names, OutboxKind, PendingIntent, VerifyOutcome } from '../kinds.js';
import { deleteNavigationView as deleteLocalView, deleteSavedSnippet as deleteLocalSnippet, deleteScheduledMessage as deleteLocalScheduled } from '../../db/queries/personal.js';
import { localSnippetId, serverSnippetId } from './snippet-local.js';

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
function verifyByReading<A, T>(read: (conn: ApiConnection, a: A) => Promise<T | undefined>, shows: (found: T, a: A, conn: ApiConnection) => boolean): (conn: ApiConnection, a: A) => Promise<VerifyOutcome> {
  return async (conn, a) => {
    const found = await read(conn, a);
    return found !== undefined && shows(found, a, conn) ? 'applied' : 'not_applied';
  };
}

/** The `verify` of a kind that deletes one server object: applied once `read` finds it no more. */
function verifyGone<A>(read: (conn: ApiConnection, a: A) => Promise<unknown>): (conn: ApiConnection, a: A) => Promise<VerifyOutcome> {
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
async function serverSnippet(conn: ApiConnection, id: number) {
  return (await getSavedSnippets(conn)).saved_snippets.find((s) => s.id === id);
}

/** The server's scheduled message `id` (a `tmp-N` id finds none), or undefined. */
export async function serverScheduledMessage(conn: ApiConnection, id: number | string) {
  return (await getScheduledMessages(conn)).scheduled_messages.find((m) => m.scheduled_message_id === id);
}

/** The server's user group `id`, deactivated or not, or undefined. */
async function serverGroup(conn: ApiConnection, id: number) {
  return (await getUserGroups(conn, { include_deactivated_groups: true })).user_groups.find((g) => g.id === id);
}

/** The server's view of `fragment`, or undefined. */
async function serverView(conn: ApiConnection, fragment: string) {
  return (await getNavigationViews(conn)).navigation_views.find((v) => v.fragment === fragment);
}

/** The server id of a scheduled message a row of `kind` is sent with. */
export function serverScheduledId(id: number | string, kind: string): number {
  // Rows are sent only once their create landed (same entity, serial), so a tmp id here is a bug.
  if (typeof id !== 'number') throw new Error(`${kind}: ${id} is not a server id`);
  return id;
}

/**
 * A server object several kinds change: the entity key of the one a row's args name (`I`: the
 * fields that name it), how to read it back (undefined: not there; `kind` names the row, for a
 * bug's message), the store area its local copy lives in and the register event types that read it
 * again on undo, and the field that holds its `tmp-N` id while its offline create is queued.
 */
export interface ServerObject<I, T> {
  key(a: I): string;
  read(conn: ApiConnection, a: I, kind: string): Promise<T | undefined>;
  readonly area: StoreArea;
  readonly refetch: readonly string[];
  readonly tempIdField?: keyof I & string;
  /** Remove the local copy (a delete's local effect); false when the args name none the device could hold. */
  forget?(db: LocalDb, a: I): boolean;
}

/** Declares a server object (the identity, for type inference). */
const serverObject = <I, T>(o: ServerObject<I, T>): ServerObject<I, T> => o;

type ServerGroup = NonNullable<Awaited<ReturnType<typeof serverGroup>>>;

/** A user group, by `user_group_id` (deactivated ones too: a reactivation reads one back). */
const USER_GROUP = serverObject({
  key: (a: { readonly user_group_id: number }) => `user_group:${a.user_group_id}`,
  read: (conn, a) => serverGroup(conn, a.user_group_id),
  area: 'user_groups',
  refetch: ['realm_user_groups'],
});

/** A saved snippet, by `saved_snippet_id` (`tmp-N` until its create lands). */
export const SAVED_SNIPPET = serverObject({
  key: (a: { readonly saved_snippet_id: number | string }) => `snippet:${a.saved_snippet_id}`,
  read: (conn, a, kind) => serverSnippet(conn, serverSnippetId(a.saved_snippet_id, kind)),
  area: 'saved_snippets',
  refetch: ['saved_snippets'],
  tempIdField: 'saved_snippet_id',
  forget: (db, a) => forgetLocal(db, localSnippetId(a.saved_snippet_id), deleteLocalSnippet),
});

/** A scheduled message, by `scheduled_message_id` (`tmp-N` until its create lands). */
export const SCHEDULED_MESSAGE = serverObject({
  key: (a: { readonly scheduled_message_id: number | string }) => `scheduled_message:${a.scheduled_message_id}`,
  // A `tmp-N` id finds none: a scheduled message not created yet is not there.
  read: (conn, a) => serverScheduledMessage(conn, a.scheduled_message_id),
  area: 'scheduled_messages',
  refetch: ['scheduled_messages'],
  tempIdField: 'scheduled_message_id',
  // Kept locally under the same ids as snippets: a created one's server id, `-N` for `tmp-N`.
  forget: (db, a) => forgetLocal(db, localSnippetId(a.scheduled_message_id), deleteLocalScheduled),
});

/** A navigation view, by `fragment`. */
export const NAVIGATION_VIEW = serverObject({
  key: (a: { readonly fragment: string }) => `navigation_view:${a.fragment}`,
  read: (conn, a) => serverView(conn, a.fragment),
  area: 'navigation_views',
  refetch: ['navigation_views'],
  forget: (db, a) => (deleteLocalView(db, a.fragment), true),
});

/** Delete the local row `id` (undefined: an id the device cannot hold, nothing to delete). */
function forgetLocal(db: LocalDb, id: number | undefined, remove: (db: LocalDb, id: number) => unknown): boolean {
  if (id === undefined) return false;
  remove(db, id);
  return true;
}

/** The local effect of a kind that deletes one `object`: its local copy goes. */
export function forgetsLocal<I>(object: ServerObject<I, unknown>): (db: LocalDb, a: I, changes: ChangeCollector) => void {
  return (db, a, changes) => {
    if (object.forget?.(db, a) === true) changes.touched(object.area);
  };
}

/** What a kind that changes one server object of type `T` declares (see `objectKind`). */
export type ObjectKindSpec<T, A, K extends string> = Omit<OutboxKind<NoInfer<A>, null, K>, 'baseSchema' | 'argsSchema' | 'entityKey' | 'send' | 'verify' | 'local' | 'tempIdFields'> & {
  readonly argsSchema: z.ZodType<A>;
  send(conn: ApiConnection, a: NoInfer<A>): Promise<unknown>;
  readonly shows: ((found: T, a: NoInfer<A>, conn: ApiConnection) => boolean) | 'gone';
  apply(db: LocalDb, a: NoInfer<A>, changes: ChangeCollector): void;
};

/**
 * A kind that changes one server object (`object`: its entity key, its `tmp-N` field) with one
 * request (`send`, whose answer the outbox does not need), verified by reading the object back:
 * `shows` says whether what is read holds the change, `'gone'` that the change deletes it. Its
 * local effect (`apply`) re-applies on server changes of the object's area and is undone by
 * reading the object's area again.
 */
export function objectKind<I, T, A extends I, K extends string>(object: ServerObject<I, T>, k: ObjectKindSpec<T, A, K>): OutboxKind<A, null, K> {
  const { send, shows, apply, ...rest } = k;
  const read = (conn: ApiConnection, a: A) => object.read(conn, a, k.kind);
  return withoutBase<A, K>({
    ...rest,
    entityKey: (a) => object.key(a),
    ...(object.tempIdField !== undefined ? { tempIdFields: [object.tempIdField] } : {}),
    send: oneCall(send),
    verify: shows === 'gone' ? verifyGone(read) : verifyByReading(read, shows),
    local: { apply: (db, a, _b, c) => apply(db, a, c), areas: [object.area], refetch: object.refetch },
  });
}

/** A group as the outbox panel names it: its name if known, and `label`, `“name”` or "a user group". */
export interface GroupPlace {
  readonly name: string | undefined;
  readonly label: string;
}

/**
 * A kind that changes one user group (`objectKind` over `USER_GROUP`). The panel describes its row
 * as `says` puts it of the group, linked to the group.
 */
export function groupKind<A extends { readonly user_group_id: number }, K extends string>(
  k: Omit<ObjectKindSpec<ServerGroup, A, K>, 'describe'> & { says(a: NoInfer<A>, group: GroupPlace, names: Names): string },
): OutboxKind<A, null, K> {
  const { says, ...rest } = k;
  return objectKind(USER_GROUP, {
    ...rest,
    describe(a, names) {
      const name = names.group(a.user_group_id);
      const group = { name, label: name !== undefined ? `“${name}”` : 'a user group' };
      return { text: says(a, group, names), link: { to: 'group', group_id: a.user_group_id, ...(name !== undefined ? { name } : {}) } };
    },
  });
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

/** `ids` with the change made locally: the removed ones gone, the added ones (not there yet) appended. */
export function withAddDelete(ids: readonly number[], a: AddDelete): number[] {
  const gone = new Set(a.delete);
  const out = ids.filter((u) => !gone.has(u));
  for (const u of a.add) if (!out.includes(u)) out.push(u);
  return out;
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
