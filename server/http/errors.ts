/**
 * Every error the server answers is a `JsonableError`: the JSON envelope `{result:"error", msg,
 * code, ...extra}` with an HTTP status. Anything else thrown by a handler is a bug and becomes a
 * 500 envelope (logged), never an HTML page.
 */
export class JsonableError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly httpStatus: number = 400,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(msg);
  }
}

export const badRequest = (msg: string, extra: Record<string, unknown> = {}) => new JsonableError('BAD_REQUEST', msg, 400, extra);

/** Zulip's ResourceNotFoundError: HTTP 404 with code BAD_REQUEST. */
export const notFound = (msg: string) => new JsonableError('BAD_REQUEST', msg, 404);

export const missingParam = (name: string) =>
  new JsonableError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });

export const invalidParam = (name: string, badValue: unknown, why?: string) =>
  new JsonableError('REQUEST_VARIABLE_INVALID', why ?? `Invalid ${name}`, 400, {
    var_name: name,
    bad_value: typeof badValue === 'string' && badValue.length > 200 ? `${badValue.slice(0, 200)}…` : badValue,
  });

export const invalidJson = (name: string) =>
  new JsonableError('INVALID_JSON', `Argument "${name}" is not valid JSON.`, 400, { var_name: name });

export const confusingParams = (a: string, b: string) =>
  new JsonableError('REQUEST_CONFUSING_VAR', `Can't decide between '${a}' and '${b}' arguments`, 400, { var_name1: a, var_name2: b });
