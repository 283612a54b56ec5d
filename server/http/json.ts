/**
 * JSON-encoded parameters, bounded in nesting. Every handler and validator (zod, JSON.stringify in
 * error messages, narrow parsing) may recurse over a decoded value, so a `narrow` nested 5,000
 * deep would overflow the stack and answer 500; the depth is checked on the text, before parsing,
 * in one pass without recursion.
 */
import { invalidParam } from './errors.js';

/** Far above any real parameter (a narrow is 3 deep, a group-setting update 4). */
export const MAX_JSON_DEPTH = 32;

export const tooDeep = (name: string, text: string) =>
  invalidParam(name, text, `Argument "${name}" is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);

/** The deepest nesting of arrays and objects in JSON text (strings skipped), stopping past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

/**
 * Parses a parameter's JSON text: `{ ok: false }` when it is not JSON (callers decide between an
 * error and reading it raw); throws REQUEST_VARIABLE_INVALID when it nests deeper than allowed.
 */
export function parseJsonParam(name: string, text: string): { ok: true; value: unknown } | { ok: false } {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw tooDeep(name, text);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
