/**
 * Handlers of the outbox part of the contract (sync/protocol/outbox.ts), spread into `handlers`.
 *
 * Queued commands answer at once with their row, online or not: their handlers are derived from
 * the commands declared with the kinds (sync/outbox/registry.ts, engine/outbox-intents.ts). An
 * intent the kind refuses, or an action a row's state does not allow, is `INVALID_REQUEST` and
 * writes nothing. Online-only operations check first that the event stream is live (`OFFLINE`
 * at once otherwise) and are never queued: a request that fails in flight is `OFFLINE` too
 * (toRpcError), and none of them changes local state before the server has answered.
 */
import { addApnsDeviceToken, createUser, deactivateUserGroup, deleteTopic, getStreams, sendE2eeTestNotification, sendInvites, updateSettings, type UpdateSettingsArgs } from '../api/index.js';
import { getChannels } from '../db/queries/channels.js';
import { getUserGroups } from '../db/queries/groups.js';
import { conversationOf } from '../engine/drafts.js';
import { rawForEdit } from '../engine/raw-cache.js';
import { outboxErrorView } from '../outbox/errors.js';
import { intentContext, runIntent } from '../engine/outbox-intents.js';
import { describeRow, QUEUED_COMMANDS, rowChange, type OutboxRowOf, type QueuedCommandName } from '../outbox/registry.js';
import type { Names } from '../outbox/kinds.js';
import type { LocalDb } from '../db/open.js';
import { getChannel } from '../db/queries/channels.js';
import { getUser } from '../db/queries/users.js';
import { OutboxIntentError } from '../engine/session-outbox.js';
import type { AccountSession } from '../engine/session.js';
import { localIdOfEcho, messageSendArgs } from '../outbox/mutations/message-send.js';
import { parseConflictDetails } from '../outbox/mutations/message-conflict.js';
import { mergeForEditing } from '../outbox/merge.js';
import { IllegalTransitionError } from '../outbox/states.js';
import type { OutboxRow } from '../outbox/store.js';
import type { outboxOperations } from '../protocol/outbox.js';
import { RpcFailure } from './errors.js';
import { setFields } from './fields.js';
import type { HandlerContext, Handlers } from './handlers.js';

/** Rounds of `delete_topic` before giving up (each deletes a batch within the server's time budget). */
export const DELETE_TOPIC_MAX_ROUNDS = 100;

const OK = { ok: true as const };


/** Refusals of the outbox are the caller's mistake, not a bug. */
function refusing<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof OutboxIntentError || e instanceof IllegalTransitionError) throw new RpcFailure('INVALID_REQUEST', e.message);
    throw e;
  }
}

function live(ctx: HandlerContext): AccountSession {
  const s = ctx.session();
  if (!s.online) throw new RpcFailure('OFFLINE', 'this needs a connection to the server; nothing was changed', { state: s.status.state });
  return s;
}

/** Names from the local store, for the rows' descriptions. */
export function storeNames(db: LocalDb): Names {
  let groups: Map<number, string> | undefined;
  return {
    channel: (id) => getChannel(db, id)?.channel.name,
    user: (id) => getUser(db, id)?.user.full_name,
    group: (id) => (groups ??= new Map(getUserGroups(db).map((g) => [g.id, g.name]))).get(id),
  };
}

/** A row as the contract shows it, its args read with its kind's schema (null when they cannot be). */
export function rowView(r: OutboxRow, names: Names): OutboxRowOf {
  const c = r.state === 'conflict' ? parseConflictDetails(r.lastError) : undefined;
  return {
    outbox_id: r.id,
    ...rowChange(r.kind, r.kindVersion, r.args),
    target: r.entityKey,
    state: r.state,
    attempts: r.attempts,
    next_attempt_at: r.nextAttemptAt,
    deadline_at: r.deadlineAt,
    last_error: outboxErrorView(r.lastError),
    conflict: c ? { base: c.base, ours: c.ours, theirs: c.theirs, merged: mergeForEditing(c.base, c.ours, c.theirs).text } : null,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    description: describeRow(r.kind, r.args, names),
  };
}

type OutboxHandlers = Pick<Handlers, keyof typeof outboxOperations>;

export const outboxHandlers: OutboxHandlers = {
  // queries
  outbox: (ctx, req) => {
    const s = ctx.session();
    const names = storeNames(s.db);
    return s.outbox.rows(req.include_finished).map((r) => rowView(r, names));
  },
  outboxCounts: (ctx) => ctx.session().outbox.counts(),
  messageRawContent: async (ctx, req) => {
    const localId = localIdOfEcho(req.message_id);
    if (localId !== undefined) {
      // Our own message still being sent: its text is in the outbox.
      const row = ctx.session().outbox.store.get(Number(localId));
      const args = messageSendArgs.safeParse(row?.args);
      if (!args.success) throw new RpcFailure('INVALID_REQUEST', `no message ${req.message_id}`);
      return { raw_content: args.data.content, source: 'outbox' as const };
    }
    const s = ctx.session();
    const r = await rawForEdit(s.conn, s.db, req.message_id, s.status.state === 'live', s.outbox.now());
    if ('unknown' in r) throw new RpcFailure('OFFLINE', r.unknown, { state: s.status.state });
    return r;
  },
  // actions on rows
  outboxRetry: (ctx, req) => refusing(() => (ctx.session().outbox.retry(req.outbox_id), OK)),
  outboxDiscard: (ctx, req) => refusing(() => (ctx.session().outbox.discard(req.outbox_id), OK)),
  outboxEdit: (ctx, req) => refusing(() => (ctx.session().outbox.edit(req.outbox_id, req.args), OK)),
  outboxResolveConflict: (ctx, req) =>
    refusing(() => {
      const s = ctx.session();
      const row = s.outbox.store.get(req.outbox_id);
      const { draft } = s.outbox.resolveConflict(req.outbox_id, req.choice);
      // "Take theirs": the user's text is kept as a draft of the message's conversation, durably.
      const messageId = row && typeof row.args === 'object' && row.args !== null ? Reflect.get(row.args, 'message_id') : undefined;
      const to = draft !== null && typeof messageId === 'number' ? conversationOf(s.db, messageId) : undefined;
      if (draft !== null && to) s.drafts.keep(to, draft);
      return { ok: true as const, draft };
    }),
  // online only
  deleteTopic: async (ctx, req) => {
    const s = live(ctx);
    // The server deletes in batches within a time budget; `complete: false` means "again".
    for (let round = 0; round < DELETE_TOPIC_MAX_ROUNDS; round++) {
      const r = await deleteTopic(s.conn, { streamId: req.channel_id, topic_name: req.topic });
      if (r.complete) return OK;
    }
    throw new RpcFailure('SERVER', `the topic was not fully deleted after ${DELETE_TOPIC_MAX_ROUNDS} rounds; try again`);
  },
  sendInvites: async (ctx, req) => {
    const s = live(ctx);
    await sendInvites(s.conn, {
      invitee_emails: req.emails,
      stream_ids: req.channel_ids,
      ...setFields(req, ['invite_as', 'invite_expires_in_minutes', 'group_ids', 'include_realm_default_subscriptions', 'notify_referrer_on_join', 'welcome_message_custom_text']),
    });
    return OK;
  },
  inviteOptions: async (ctx) => {
    const s = live(ctx);
    // Only the default channels: no public, no subscribed ones (Zulip's include_default filter).
    const defaults = await getStreams(s.conn, { include_public: false, include_subscribed: false, include_default: true });
    const defaultIds = new Set(defaults.streams.map((c) => c.stream_id));
    const known = new Map<number, string>();
    for (const c of getChannels(s.db)) if (!c.channel.is_archived && (c.subscription || defaultIds.has(c.channel.stream_id))) known.set(c.channel.stream_id, c.channel.name);
    for (const c of defaults.streams) known.set(c.stream_id, c.name);
    const channels = [...known].map(([channel_id, name]) => ({ channel_id, name, is_default: defaultIds.has(channel_id) }));
    channels.sort((a, b) => a.name.localeCompare(b.name));
    const groups = getUserGroups(s.db)
      .filter((g) => !g.is_system_group)
      .map((g) => ({ group_id: g.id, name: g.name, description: g.description }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { channels, groups };
  },
  createUser: async (ctx, req) => ({ user_id: (await createUser(live(ctx).conn, req)).user_id }),
  sendTestNotification: async (ctx, req) => {
    await sendE2eeTestNotification(live(ctx).conn, req.device_id === undefined ? {} : { deviceId: req.device_id });
    return OK;
  },
  registerApnsToken: async (ctx, req) => {
    await addApnsDeviceToken(live(ctx).conn, req);
    return OK;
  },
  updateAccount: async (ctx, req) => {
    const s = live(ctx);
    // Never queued, never stored: the passwords live only in this request.
    const names: UpdateSettingsArgs = setFields(req, ['full_name', 'email']);
    const { old_password: oldPassword, new_password: newPassword } = req;
    await updateSettings(s.conn, oldPassword !== undefined && newPassword !== undefined ? { ...names, old_password: oldPassword, new_password: newPassword } : names);
    return OK;
  },
  deactivateUserGroup: async (ctx, req) => {
    const s = live(ctx);
    await deactivateUserGroup(s.conn, { userGroupId: req.user_group_id });
    // The server's `user_group` event marks it too; the screen shows it without waiting for the poll.
    s.markUserGroupDeactivated(req.user_group_id);
    return OK;
  },
};

/** One handler per queued command, derived from the command table (sync/outbox/registry.ts). */
export const queuedHandlers: Pick<Handlers, QueuedCommandName> = queuedHandlerTable();

function queuedHandlerTable(): Pick<Handlers, QueuedCommandName> {
  const out: Partial<Record<QueuedCommandName, (ctx: HandlerContext, req: unknown) => unknown>> = {};
  for (const name of Object.keys(QUEUED_COMMANDS) as QueuedCommandName[]) {
    out[name] = (ctx, req) =>
      refusing(() => {
        const s = ctx.session();
        return runIntent(intentContext(s.db, s.outbox), name, req);
      });
  }
  // Each entry runs the command of its own name (`runIntent` answers that command's response).
  return out as Pick<Handlers, QueuedCommandName>;
}
