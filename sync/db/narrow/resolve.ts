/**
 * Name → id resolution for narrow operands against the cached register data (channels, users,
 * realm settings). Errors mirror the server's BAD_NARROW cases so a narrow that the server would
 * refuse is refused locally too, with a reason the UI can show.
 */
import type { LocalDb } from '../open.js';
import { cachedStatement } from '../queries/statements.js';

export type NarrowErrorCode =
  | 'invalid_narrow' // not a narrow at all, or an unknown operator / operand
  | 'unknown_channel'
  | 'unknown_user'
  | 'unresolvable_with' // `with` names a message not cached and the rest names no conversation
  | 'channel_and_dm';

export class LocalNarrowError extends Error {
  override readonly name = 'LocalNarrowError';
  constructor(
    readonly code: NarrowErrorCode,
    message: string,
  ) {
    super(`narrow: ${message}`);
  }
}

type Operand = string | number | readonly number[];

/**
 * An id operand must name a cached row; a text operand is looked up with `byName` (one `?`). Either
 * way an unknown one is refused with `code`, as the server refuses it.
 */
function resolveId(db: LocalDb, operand: Operand, table: 'channels' | 'users', byName: string, code: 'unknown_channel' | 'unknown_user'): number {
  let id: number | undefined;
  if (typeof operand === 'number') id = cachedStatement<[number], number>(db, `SELECT id FROM ${table} WHERE id = ?`).pluck().get(operand);
  else if (typeof operand === 'string') id = cachedStatement<[string], number>(db, `SELECT id FROM ${table} WHERE ${byName}`).pluck().get(operand.trim());
  if (id === undefined) throw new LocalNarrowError(code, `${code.replace('_', ' ')} ${JSON.stringify(operand)}`);
  return id;
}

export function resolveChannelId(db: LocalDb, operand: Operand): number {
  // `channels.name` is COLLATE NOCASE, like the server's name lookup.
  return resolveId(db, operand, 'channels', 'name = ?', 'unknown_channel');
}

export function resolveUserId(db: LocalDb, operand: Operand): number {
  return resolveId(db, operand, 'users', 'lower(email) = lower(?)', 'unknown_user');
}

/** `dm` operand: an id list, one id, or comma-separated emails. */
export function resolveDmUserIds(db: LocalDb, operand: Operand): number[] {
  let parts: Array<string | number>;
  if (typeof operand === 'number') parts = [operand];
  else if (typeof operand === 'string') parts = operand.split(',').map((e) => e.trim()).filter((e) => e !== '');
  else parts = [...operand];
  if (parts.length === 0) throw new LocalNarrowError('invalid_narrow', 'empty dm operand');
  return parts.map((p) => resolveUserId(db, p));
}

/** A message id from an int or decimal text (the server accepts both since FL 194). */
export function asMessageId(operand: Operand, what: string): number {
  const n = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand.trim()) ? Number(operand) : NaN;
  if (!Number.isSafeInteger(n)) throw new LocalNarrowError('invalid_narrow', `invalid ${what} ${JSON.stringify(operand)}`);
  return n;
}

/** A register value cached in `realm` (JSON), or undefined. */
export function realmValue(db: LocalDb, name: string): unknown {
  const raw = cachedStatement<[string], string>(db, 'SELECT value FROM realm WHERE name = ?').pluck().get(name);
  return raw === undefined ? undefined : (JSON.parse(raw) as unknown);
}

/** The topic as stored: the realm's display name for the empty topic means `""`. */
export function storedTopic(db: LocalDb, topic: string): string {
  const display = realmValue(db, 'realm_empty_topic_display_name');
  return typeof display === 'string' && topic === display ? '' : topic;
}
