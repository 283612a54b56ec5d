/**
 * The operations the renderer may invoke, typed: the contract's table (sync/protocol/rpc.ts) and
 * the queued commands, whose one declaration is with their kinds in the engine (the type of
 * sync/outbox/registry.ts's command table, imported as a type only: nothing of the engine reaches
 * the page). The bridge parses queued answers with `queuedAnswerSchema`; the engine has already
 * checked them against the command's own schema. Likewise the `outbox` query's rows are typed by
 * their kind (`OutboxRowOf`, derived from the same list): the bridge checks them with the
 * contract's row schema, and the engine read each row's args with its kind's own schema.
 */
import type * as z from 'zod';
import type { QueuedCommands, TypedOutboxQuery } from '../../../sync/outbox/registry.js';
import type { operations } from '../../../sync/protocol/rpc.js';

export type Operations = Omit<typeof operations, keyof TypedOutboxQuery> & TypedOutboxQuery & QueuedCommands;
export type OperationName = keyof Operations & string;
export type OperationRequest<N extends OperationName> = z.input<Operations[N]['request']>;
export type OperationResponse<N extends OperationName> = z.output<Operations[N]['response']>;
