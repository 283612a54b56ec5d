/**
 * The queued commands (declared with their kinds in sync/outbox/mutations/, listed in
 * sync/outbox/registry.ts) over the session's database and outbox: each request parsed with its
 * command's schema, then turned into rows by the command's `intent`. Nothing here touches the
 * network; each returns at once.
 */
import type * as z from 'zod';
import type { LocalDb } from '../db/open.js';
import type { IntentContext, IntentOutbox } from '../outbox/commands.js';
import { OutboxIntentError } from '../outbox/kinds.js';
import { QUEUED_COMMANDS, type QueuedCommandName, type QueuedCommands } from '../outbox/registry.js';
import { deleteDraftOf } from './drafts.js';

export function intentContext(db: LocalDb, outbox: IntentOutbox): IntentContext {
  return { db, outbox, deleteDraftOf: (to, changes) => void deleteDraftOf(db, to, changes) };
}

/** Run a queued command by name: a request its schema refuses is the caller's mistake (nothing written). */
export function runIntent<N extends QueuedCommandName>(ctx: IntentContext, name: N, request: unknown): z.input<QueuedCommands[N]['response']> {
  const c = QUEUED_COMMANDS[name];
  const parsed = c.request.safeParse(request);
  if (!parsed.success) throw new OutboxIntentError(`${name}: ${parsed.error.message}`);
  // The command's own intent over its own parsed request (the table is keyed by the same name).
  const intent = c.intent as (r: unknown, ctx: IntentContext) => z.input<QueuedCommands[N]['response']>;
  return intent(parsed.data, ctx);
}

/** Every queued command as a method, for callers inside the engine and tests. */
export type OutboxIntents = { [N in QueuedCommandName]: (request: z.input<QueuedCommands[N]['request']>) => z.input<QueuedCommands[N]['response']> };

export function outboxIntents(db: LocalDb, outbox: IntentOutbox): OutboxIntents {
  const ctx = intentContext(db, outbox);
  const out: Partial<Record<QueuedCommandName, (request: unknown) => unknown>> = {};
  for (const name of Object.keys(QUEUED_COMMANDS) as QueuedCommandName[]) out[name] = (request) => runIntent(ctx, name, request);
  return out as OutboxIntents;
}
