/**
 * Typed extra fields of error envelopes, by `code` (spec "Errors" table and
 * docs/zulip-behaviour.md "Error codes and HTTP status").
 * A present field of the wrong type makes the details undefined (the raw `extra` is still kept),
 * so a surprising server never turns an API error into a crash.
 */
import * as z from 'zod';

const int = z.number().int();

const detailSchemas = {
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: z.lazy(() => z.object({
    code: z.literal('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'),
    // Clients must accept null (spec guidance); some servers omit the counts.
    first_message_id_allowed_to_move: int.nullable().default(null),
    total_messages_in_topic: int.optional(),
    total_messages_allowed_to_move: int.optional(),
  })),
  INVITATION_FAILED: z.lazy(() => z.object({
    code: z.literal('INVITATION_FAILED'),
    errors: z.array(z.tuple([z.string(), z.string(), z.boolean()])),
    sent_invitations: z.boolean(),
    license_limit_reached: z.boolean(),
    daily_limit_reached: z.boolean(),
  })),
  STREAM_DOES_NOT_EXIST: z.lazy(() => z.object({
    code: z.literal('STREAM_DOES_NOT_EXIST'),
    stream_id: int.optional(),
    stream: z.string().optional(),
  })),
  EXPECTATION_MISMATCH: z.object({
    code: z.literal('EXPECTATION_MISMATCH'),
    field_name: z.string(),
  }),
  BAD_NARROW: z.lazy(() => z.object({ code: z.literal('BAD_NARROW'), desc: z.string().optional() })),
  BAD_EVENT_QUEUE_ID: z.lazy(() => z.object({ code: z.literal('BAD_EVENT_QUEUE_ID'), queue_id: z.string().optional() })),
  REQUEST_VARIABLE_MISSING: z.object({ code: z.literal('REQUEST_VARIABLE_MISSING'), var_name: z.string() }),
  REQUEST_VARIABLE_INVALID: z.lazy(() => z.object({
    code: z.literal('REQUEST_VARIABLE_INVALID'),
    var_name: z.string(),
    bad_value: z.unknown().optional(),
  })),
  REQUEST_CONFUSING_VAR: z.lazy(() => z.object({
    code: z.literal('REQUEST_CONFUSING_VAR'),
    var_name1: z.string(),
    var_name2: z.string(),
  })),
  CANNOT_DEACTIVATE_GROUP_IN_USE: z.lazy(() => z.object({
    code: z.literal('CANNOT_DEACTIVATE_GROUP_IN_USE'),
    objections: z.array(z.unknown()),
  })),
  CHANNEL_ALREADY_EXISTS: z.object({ code: z.literal('CHANNEL_ALREADY_EXISTS'), channel_name: z.string() }),
} as const;

type DetailSchemas = typeof detailSchemas;
export type ApiErrorCodeWithDetails = keyof DetailSchemas;
export type ApiErrorDetailsFor<K extends ApiErrorCodeWithDetails> = z.output<DetailSchemas[K]>;

const anyDetails = z.discriminatedUnion('code', [
  detailSchemas.MOVE_MESSAGES_TIME_LIMIT_EXCEEDED,
  detailSchemas.INVITATION_FAILED,
  detailSchemas.STREAM_DOES_NOT_EXIST,
  detailSchemas.EXPECTATION_MISMATCH,
  detailSchemas.BAD_NARROW,
  detailSchemas.BAD_EVENT_QUEUE_ID,
  detailSchemas.REQUEST_VARIABLE_MISSING,
  detailSchemas.REQUEST_VARIABLE_INVALID,
  detailSchemas.REQUEST_CONFUSING_VAR,
  detailSchemas.CANNOT_DEACTIVATE_GROUP_IN_USE,
  detailSchemas.CHANNEL_ALREADY_EXISTS,
]);
export type ApiErrorDetails = z.output<typeof anyDetails>;

export function parseErrorDetails(code: string, body: Record<string, unknown>): ApiErrorDetails | undefined {
  if (!Object.prototype.hasOwnProperty.call(detailSchemas, code)) return undefined;
  const parsed = anyDetails.safeParse({ ...body, code });
  return parsed.success ? parsed.data : undefined;
}
