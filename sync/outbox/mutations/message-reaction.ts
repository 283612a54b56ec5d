/**
 * `add_or_remove_reaction` v1: the user's own emoji reaction added to or removed from a message
 * (`POST` / `DELETE /messages/{id}/reactions`), with the emoji named exactly (name, code, type).
 *
 * One entity per (message, emoji): toggles reach the server in order. A toggle back while the
 * first is still queued annuls both (the server never saw either). Sending what is already true
 * (`REACTION_ALREADY_EXISTS` for an add, `REACTION_DOES_NOT_EXIST` for a remove, e.g. the same
 * reaction made on the phone meanwhile) is the user's wish reached, not a failure.
 *
 * Verify: read the message and look for our reaction.
 */
import * as z from 'zod';
import { addReaction, getMessage, getOwnUser, isApiError, removeReaction } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { LOCAL_ECHO_MIN_ID, updateStoredMessage } from '../../db/queries/messages.js';
import { getAccount } from '../../db/queries/state.js';
import type { ChangeCollector } from '../../db/changes.js';
import { answer, notUnsent, queuedCommand } from '../commands.js';
import { withoutBase } from './shared.js';
import { enqueuedSchema } from '../../protocol/outbox.js';

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;

export const messageReactionArgs = z.lazy(() => z.object({
  message_id: z.number().int().positive().lt(LOCAL_ECHO_MIN_ID),
  op: z.enum(['add', 'remove']),
  emoji_name: z.string().min(1),
  emoji_code: z.string().min(1),
  reaction_type: z.enum(REACTION_TYPES),
}));
export type MessageReactionArgs = z.output<typeof messageReactionArgs>;

export const MESSAGE_REACTION_KIND = 'add_or_remove_reaction';

const ALREADY = { add: 'REACTION_ALREADY_EXISTS', remove: 'REACTION_DOES_NOT_EXIST' } as const;

export const messageReaction = withoutBase({
  kind: MESSAGE_REACTION_KIND,
  version: 1,
  argsSchema: messageReactionArgs,
  describe: (a) => ({ text: `${a.op === 'add' ? 'React' : 'Remove the reaction'} :${a.emoji_name}:`, link: { to: 'message', message_id: a.message_id } }),
  entityKey: (a) => `reaction:${a.message_id}:${a.reaction_type}:${a.emoji_code}`,
  async send(conn, a) {
    const args = { messageId: a.message_id, emoji_name: a.emoji_name, emoji_code: a.emoji_code, reaction_type: a.reaction_type };
    try {
      await (a.op === 'add' ? addReaction(conn, args) : removeReaction(conn, args));
    } catch (e) {
      if (isApiError(e) && e.kind === 'api' && e.code === ALREADY[a.op]) return;
      throw e;
    }
  },
  async verify(conn, a) {
    const self = (await getOwnUser(conn)).user_id;
    const { message } = await getMessage(conn, { messageId: a.message_id, apply_markdown: false });
    const has = message.reactions.some((r) => r.user_id === self && r.emoji_code === a.emoji_code && r.reaction_type === a.reaction_type);
    return has === (a.op === 'add') ? 'applied' : 'not_applied';
  },
  coalesce(prev, next) {
    const p = prev.kind === MESSAGE_REACTION_KIND ? messageReactionArgs.safeParse(prev.args) : undefined;
    if (!p?.success) return { action: 'append' };
    // Same op twice: one is enough. A toggle back: the two annul each other.
    return p.data.op === next.args.op ? { action: 'merge', args: p.data, base: null } : { action: 'cancel' };
  },
  local: {
    apply: (db, a, _b, c) => applyOptimistic(db, a, c),
    messageIds: (a) => [a.message_id],
  },
});

export function applyOptimistic(db: LocalDb, a: MessageReactionArgs, changes: ChangeCollector): void {
  const self = getAccount(db)?.user_id ?? undefined;
  if (self === undefined) return;
  updateStoredMessage(
    db,
    a.message_id,
    (m) => {
      const mine = (r: (typeof m.reactions)[number]) => r.user_id === self && r.emoji_code === a.emoji_code && r.reaction_type === a.reaction_type;
      const has = m.reactions.some(mine);
      if (has === (a.op === 'add')) return undefined;
      const reactions = a.op === 'add' ? [...m.reactions, { emoji_name: a.emoji_name, emoji_code: a.emoji_code, reaction_type: a.reaction_type, user_id: self }] : m.reactions.filter((r) => !mine(r));
      return { ...m, reactions };
    },
    changes,
  );
}

/** The contract's command: the user's own reaction, added or removed (a toggle back while queued annuls both). */
export const messageReactionCommands = {
  addOrRemoveReaction: queuedCommand({
    request: z.lazy(() => z.object({
      message_id: z.number().int().positive(),
      op: z.enum(['add', 'remove']),
      emoji_name: z.string().min(1),
      emoji_code: z.string().min(1),
      reaction_type: z.enum(REACTION_TYPES),
    })),
    response: enqueuedSchema,
    intent(r, ctx) {
      notUnsent(r.message_id);
      return answer(ctx.outbox.enqueue(messageReaction, r, null));
    },
  }),
};
