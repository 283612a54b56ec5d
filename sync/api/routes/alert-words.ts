/**
 * Alert words (OpenAPI get-alert-words, add-alert-words, remove-alert-words): words or phrases that
 * flag a message `has_alert_word` for the user. Case-insensitive; each operation answers the whole
 * list.
 */
import { z } from 'zod';
import type { ApiConnection, RequestOptions } from '../core.js';
import { success } from '../schemas/envelope.js';

export const alertWordsResponse = success({ alert_words: z.array(z.string()) });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const alertWordResponses = {
  'GET /users/me/alert_words': alertWordsResponse,
  'POST /users/me/alert_words': alertWordsResponse,
  'DELETE /users/me/alert_words': alertWordsResponse,
} as const;

/** Zulip's limit on one alert word (longer ones are refused with BAD_REQUEST). */
export const MAX_ALERT_WORD_LENGTH = 100;

/** GET /users/me/alert_words: the user's alert words. */
export function getAlertWords(conn: ApiConnection, opts: RequestOptions = {}) {
  return conn.request({ method: 'GET', path: '/users/me/alert_words', schema: alertWordsResponse, ...opts });
}

/** POST /users/me/alert_words: add words (ones already present, in any case, are ignored). */
export function addAlertWords(conn: ApiConnection, args: { alert_words: readonly string[] }, opts: RequestOptions = {}) {
  return conn.request({ method: 'POST', path: '/users/me/alert_words', params: { alert_words: args.alert_words }, schema: alertWordsResponse, ...opts });
}

/** DELETE /users/me/alert_words: remove words (case-insensitively; unknown ones are ignored). */
export function removeAlertWords(conn: ApiConnection, args: { alert_words: readonly string[] }, opts: RequestOptions = {}) {
  return conn.request({ method: 'DELETE', path: '/users/me/alert_words', params: { alert_words: args.alert_words }, schema: alertWordsResponse, ...opts });
}
