/** The success envelope every response shares, and the small building blocks the models reuse. */
import * as z from 'zod';

export const int = z.number().int();

/**
 * Base of every success body. `ignored_parameters_unsupported` (FL 167) is part of the parsed result
 * so callers see it; the core also logs it.
 */
export const successEnvelope = z.object({
  result: z.literal('success'),
  msg: z.string().default(''),
  ignored_parameters_unsupported: z.array(z.string()).optional(),
});

/** A success body with these extra fields. */
export function success<Shape extends z.ZodRawShape>(shape: Shape) {
  return successEnvelope.extend(shape);
}

/** The empty success object (`{result, msg}` and nothing else the client needs). */
export const emptySuccess = successEnvelope;
export type EmptySuccess = z.output<typeof emptySuccess>;

/**
 * An enum that degrades to the literal `'unknown'` for values a newer server may send, instead of
 * failing the whole response (docs/architecture.md rule 3).
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string().transform(() => 'unknown' as const)]);
}

/** Same idea for integer enums (roles, policies, setting values). */
export function openIntEnum<const T extends readonly [number, ...number[]]>(values: T) {
  const known = (v: number): v is T[number] => values.includes(v);
  return int.transform((v) => (known(v) ? v : ('unknown' as const)));
}
