/** Saved snippets: GET, POST /saved_snippets; PATCH, DELETE /saved_snippets/{id} (spec; docs/zulip-behaviour.md "Saved snippets"). */
import { badRequest, invalidParam, missingParam } from '../http/errors.js';
import type { Params } from '../http/params.js';
import { getRealm } from '../model/realm.js';
import {
  createSavedSnippet,
  deleteSavedSnippet,
  editSavedSnippet,
  listSavedSnippets,
  MAX_SNIPPET_TITLE_LENGTH,
  requireSavedSnippet,
} from '../model/saved-snippets.js';
import type { ServerState } from '../state.js';
import { pathId, route, type ApiRouter } from './context.js';

/** Title and content are stripped; neither may be empty (spec: BAD_REQUEST). */
function readField(params: Params, name: 'title' | 'content', max: number): string | undefined {
  const raw = params.str(name);
  if (raw === undefined) return undefined;
  const v = raw.trim();
  if (v === '') throw badRequest(name === 'title' ? 'Title cannot be empty.' : 'Content cannot be empty.');
  if ([...v].length > max) throw invalidParam(name, raw, `${name} is too long (limit: ${max} characters)`);
  return v;
}

const maxContent = (srv: ServerState) => getRealm(srv).max_message_length;

export function registerSavedSnippetRoutes(r: ApiRouter): void {
  route(r, 'GET', '/saved_snippets', ({ srv, user }) => ({ saved_snippets: listSavedSnippets(srv, user.id) }));

  route(r, 'POST', '/saved_snippets', ({ srv, user, params }) => {
    if (!params.has('title')) throw missingParam('title');
    if (!params.has('content')) throw missingParam('content');
    const title = readField(params, 'title', MAX_SNIPPET_TITLE_LENGTH)!;
    const content = readField(params, 'content', maxContent(srv))!;
    return { saved_snippet_id: createSavedSnippet(srv, user.id, title, content).id };
  });

  route(r, 'PATCH', '/saved_snippets/:saved_snippet_id', (ctx) => {
    const { srv, user, params } = ctx;
    const id = pathId(ctx, 'saved_snippet_id');
    const title = readField(params, 'title', MAX_SNIPPET_TITLE_LENGTH);
    const content = readField(params, 'content', maxContent(srv));
    // A missing snippet is an error even when nothing would change (spec: BAD_REQUEST, HTTP 404).
    requireSavedSnippet(srv, user.id, id);
    // Nothing to change: success without a spurious event (as Zulip).
    if (title === undefined && content === undefined) return;
    editSavedSnippet(srv, user.id, id, { title, content });
  });

  route(r, 'DELETE', '/saved_snippets/:saved_snippet_id', (ctx) => {
    deleteSavedSnippet(ctx.srv, ctx.user.id, pathId(ctx, 'saved_snippet_id'));
  });
}
