/** Emoji reactions: POST and DELETE /messages/{message_id}/reactions. */
import { addReaction, REACTION_TYPES, removeReaction, type ReactionSpec } from '../model/reactions.js';
import type { Params } from '../http/params.js';
import { readReceipts } from '../model/read-receipts.js';
import { pathId, route, type ApiRouter } from './context.js';

function readSpec(params: Params): ReactionSpec {
  return {
    emojiName: params.str('emoji_name'),
    emojiCode: params.str('emoji_code'),
    reactionType: params.choice('reaction_type', REACTION_TYPES),
  };
}

export function registerReactionRoutes(r: ApiRouter): void {
  route(r, 'GET', '/messages/:message_id/read_receipts', (ctx) => ({ user_ids: readReceipts(ctx.srv, ctx.user, pathId(ctx, 'message_id')) }));

  route(r, 'POST', '/messages/:message_id/reactions', (ctx) => {
    const id = pathId(ctx, 'message_id');
    const spec = readSpec(ctx.params);
    if (spec.emojiName === undefined) ctx.params.reqStr('emoji_name');
    addReaction(ctx.srv, ctx.user, id, spec);
  });

  route(r, 'DELETE', '/messages/:message_id/reactions', (ctx) => {
    const id = pathId(ctx, 'message_id');
    removeReaction(ctx.srv, ctx.user, id, readSpec(ctx.params));
  });
}
