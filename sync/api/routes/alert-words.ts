/**
 * Alert words (OpenAPI get-alert-words, add-alert-words, remove-alert-words): words or phrases that
 * flag a message `has_alert_word` for the user. Case-insensitive; each operation answers the whole
 * list.
 */
import * as z from 'zod';
import { operation, responseTable } from '../operation.js';
import { success } from '../schemas/envelope.js';

export const alertWordsResponse = z.lazy(() => success({ alert_words: z.array(z.string()) }));

/** Zulip's limit on one alert word (longer ones are refused with BAD_REQUEST). */
export const MAX_ALERT_WORD_LENGTH = 100;

const alertWords = (args: { alert_words: readonly string[] }) => ({ params: { alert_words: args.alert_words } });

/** GET /users/me/alert_words: the user's alert words. */
export const getAlertWords = operation({ method: 'GET', path: '/users/me/alert_words', schema: alertWordsResponse });

/** POST /users/me/alert_words: add words (ones already present, in any case, are ignored). */
export const addAlertWords = operation({ method: 'POST', path: '/users/me/alert_words', schema: alertWordsResponse, request: alertWords });

/** DELETE /users/me/alert_words: remove words (case-insensitively; unknown ones are ignored). */
export const removeAlertWords = operation({ method: 'DELETE', path: '/users/me/alert_words', schema: alertWordsResponse, request: alertWords });

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const alertWordResponses = responseTable(getAlertWords, addAlertWords, removeAlertWords);
