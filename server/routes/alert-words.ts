/**
 * Alert words: GET, POST and DELETE /users/me/alert_words (Zulip's zerver/views/alert_words.py).
 * Each answers the user's whole list; POST and DELETE also send an `alert_words` event. And muted
 * users: POST / DELETE /users/me/muted_users/{muted_user_id} (zerver/views/muted_users.py).
 */
import * as z from 'zod';
import { badRequest } from '../http/errors.js';
import type { Params } from '../http/params.js';
import { addAlertWords, cleanAlertWords, listAlertWords, MAX_ALERT_WORD_LENGTH, removeAlertWords } from '../model/alert-words.js';
import { muteUser, unmuteUser } from '../model/muted-users.js';
import { pathId, route, type ApiRouter } from './context.js';

function readWords(params: Params): string[] {
  const words = params.reqJson('alert_words', z.array(z.string()));
  words.forEach((w, i) => {
    if ([...w].length > MAX_ALERT_WORD_LENGTH) throw badRequest(`alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  });
  return cleanAlertWords(words);
}

export function registerAlertWordRoutes(r: ApiRouter): void {
  route(r, 'GET', '/users/me/alert_words', ({ srv, user }) => ({ alert_words: listAlertWords(srv, user.id) }));
  route(r, 'POST', '/users/me/alert_words', ({ srv, user, params }) => ({ alert_words: addAlertWords(srv, user.id, readWords(params)) }));
  route(r, 'POST', '/users/me/muted_users/:muted_user_id', (ctx) => {
    muteUser(ctx.srv, ctx.user.id, pathId(ctx, 'muted_user_id'));
    return {};
  });
  route(r, 'DELETE', '/users/me/muted_users/:muted_user_id', (ctx) => {
    unmuteUser(ctx.srv, ctx.user.id, pathId(ctx, 'muted_user_id'));
    return {};
  });
  route(r, 'DELETE', '/users/me/alert_words', ({ srv, user, params }) => ({ alert_words: removeAlertWords(srv, user.id, readWords(params)) }));
}
