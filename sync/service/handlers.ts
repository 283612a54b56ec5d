/**
 * One handler per operation of the contract (`sync/protocol/rpc.ts` `operations`, plus the queued
 * commands derived from sync/outbox/registry.ts). The mapped type
 * makes a missing handler a compile error. Handlers receive the already-parsed request; their answer
 * is parsed with the response schema before it leaves the service.
 */
import type * as z from 'zod';
import type { AccountSession } from '../engine/session.js';
import { operations } from '../protocol/rpc.js';
import { QUEUED_COMMANDS, type QueuedCommands } from '../outbox/registry.js';
import type { AccountSummary, SignInRequest, SignOutCheck } from '../protocol/accounts.js';
import type { AccountsState, Organisation } from '../protocol/accounts.js';
import { RpcFailure } from './errors.js';
import { getReadReceipts } from '../api/index.js';
import { getUser } from '../db/queries/users.js';
import { storedMutedUsers } from '../outbox/mutations/user-mute.js';
import type { ViewHandle } from '../engine/session-views.js';
import { storedServerEmojiNames } from '../engine/server-emoji.js';
import type { CertificateInfo, NetworkSettings } from '../../common/network-settings.js';
import { channelHandlers } from './handlers-channels.js';
import { outboxHandlers, queuedHandlers } from './handlers-outbox.js';

/** What a handler may use: the open account and the calling client's views. */
export interface HandlerContext {
  /** The shown account's session; throws NO_ACCOUNT when none is shown. */
  session(): AccountSession;
  readonly views: Map<string, ViewHandle>;
  /** Push a live view's change set to the calling client. */
  pushView(viewId: string, changes: Parameters<Parameters<AccountSession['openNarrow']>[1]>[0]): void;
  readonly accounts: {
    state(): AccountsState;
    signIn(req: SignInRequest): Promise<AccountSummary>;
    openSandbox(): Promise<AccountSummary>;
    switchAccount(id: string): Promise<AccountSummary>;
    organisations(): Organisation[];
    reorder(ids: readonly string[]): void;
    signOutCheck(id: string): Promise<SignOutCheck>;
    dismissDamageNotice(): void;
    signOut(id: string, queued: 'wait' | 'keep' | 'discard' | undefined, waitMs: number): Promise<{ kept: boolean }>;
  };
  readonly network: {
    get(): NetworkSettings;
    set(next: NetworkSettings): Promise<NetworkSettings>;
    peek(realmUrl: string): Promise<CertificateInfo>;
    trust(realmUrl: string, fingerprint: string): Promise<NetworkSettings>;
    addAuthority(pem: string): Promise<NetworkSettings>;
  };
}

/** The contract's operations plus the queued commands, declared with their kinds (sync/outbox/registry.ts). */
export const serviceOperations = { ...operations, ...QUEUED_COMMANDS };
type ServiceOperations = typeof operations & QueuedCommands;
export type ServiceOperationName = keyof ServiceOperations & string;
type Req<N extends ServiceOperationName> = z.output<ServiceOperations[N]['request']>;
type Res<N extends ServiceOperationName> = z.input<ServiceOperations[N]['response']>;
export type Handlers = { [N in ServiceOperationName]: (ctx: HandlerContext, req: Req<N>) => Res<N> | Promise<Res<N>> };

const OK = { ok: true as const };

function view(ctx: HandlerContext, id: string): ViewHandle {
  const v = ctx.views.get(id);
  if (!v) throw new RpcFailure('INVALID_REQUEST', `no open view ${id}`);
  return v;
}

export const handlers: Handlers = {
  // queries
  status: (ctx) => ctx.session().status,
  channels: (ctx) => ctx.session().queries.channels(),
  users: (ctx) => ctx.session().queries.users(),
  ownUser: (ctx) => {
    const s = ctx.session();
    const id = s.selfUserId ?? null;
    const role = id === null ? undefined : getUser(s.db, id)?.user.role;
    return { user_id: id, role: typeof role === 'number' ? role : null };
  },
  presence: (ctx) => ctx.session().presences(),
  mutedUsers: (ctx) => storedMutedUsers(ctx.session().db).map((m) => m.id),
  savedSnippets: (ctx) => ctx.session().queries.savedSnippets(),
  realmEmoji: (ctx) => ctx.session().queries.realmEmoji(),
  serverEmojiNames: (ctx) => storedServerEmojiNames(ctx.session().db),
  navigationViews: (ctx) => ctx.session().queries.navigationViews(),
  scheduledMessages: (ctx) => ctx.session().queries.scheduledMessages(),
  drafts: (ctx) => ctx.session().drafts.list(),
  userSettings: (ctx) => ctx.session().queries.userSettings(),
  editHistory: (ctx, req) => ctx.session().editHistory(req.message_id),
  typingEditors: (ctx) => ctx.session().typingEditors(),
  typingInConversation: (ctx, req) => ({ user_ids: ctx.session().typingIn(req.to) }),
  channelTopics: (ctx, req) => {
    const q = ctx.session().queries;
    if (!q.hasChannel(req.channel_id)) throw new RpcFailure('INVALID_REQUEST', `unknown channel ${req.channel_id}`);
    return q.channelTopics(req.channel_id);
  },
  dmConversations: (ctx) => ctx.session().queries.dmConversations(),
  unreadCounts: (ctx) => ctx.session().queries.unreadCounts(),
  userGroups: (ctx, req) => ctx.session().queries.userGroups(req.include_deactivated),
  keptOffline: (ctx) => ctx.session().uploads.pinnedPaths(),
  readReceipts: async (ctx, req) => {
    const s = ctx.session();
    if (!s.online) throw new RpcFailure('OFFLINE', 'read receipts need a connection to the server', { state: s.status.state });
    const r = await getReadReceipts(s.conn, { messageId: req.message_id });
    return { message_id: req.message_id, user_ids: [...r.user_ids].sort((a, b) => a - b) };
  },
  // commands
  start: (ctx) => (ctx.session().start(), OK),
  stop: async (ctx) => (await ctx.session().stop(), OK),
  nudge: (ctx, req) => (ctx.session().nudge(req.reason), OK),
  openNarrow: (ctx, req) => {
    const s = ctx.session();
    if (s.selfUserId === undefined) throw new RpcFailure('UNAVAILABLE', 'the account has not finished its first sync yet; try again when the status is live');
    let id = '';
    const h = s.openNarrow(req, (cs) => ctx.pushView(id, cs));
    id = h.id;
    ctx.views.set(id, h);
    return { view_id: id, snapshot: h.snapshot };
  },
  loadOlder: (ctx, req) => (view(ctx, req.view_id).loadOlder(req.count), OK),
  loadNewer: (ctx, req) => (view(ctx, req.view_id).loadNewer(req.count), OK),
  closeNarrow: (ctx, req) => {
    ctx.views.get(req.view_id)?.close();
    ctx.views.delete(req.view_id);
    return OK;
  },
  saveDraft: (ctx, req) => ({ key: ctx.session().drafts.save(req.to, req.content) }),
  deleteDraft: (ctx, req) => (ctx.session().drafts.delete(req.key), OK),
  reportActivity: (ctx, req) => (ctx.session().reportActivity(req.active, req.new_user_input), OK),
  setTyping: (ctx, req) => ctx.session().setTyping(req.to, req.op),
  setEditTyping: (ctx, req) => ctx.session().setEditTyping(req.message_id, req.op),
  keepOffline: async (ctx, req) => {
    const a = await ctx.session().uploads.pin(req.path);
    return a.kind === 'kept' ? { kept: true, reason: null } : { kept: false, reason: a.kind };
  },
  // accounts
  accounts: (ctx) => ctx.accounts.state(),
  signIn: (ctx, req) => ctx.accounts.signIn(req),
  openSandbox: (ctx) => ctx.accounts.openSandbox(),
  switchAccount: (ctx, req) => ctx.accounts.switchAccount(req.id),
  organisations: (ctx) => ctx.accounts.organisations(),
  reorderAccounts: (ctx, req) => (ctx.accounts.reorder(req.ids), OK),
  signOutCheck: (ctx, req) => ctx.accounts.signOutCheck(req.id),
  dismissDamageNotice: (ctx) => (ctx.accounts.dismissDamageNotice(), { ok: true as const }),
  signOut: async (ctx, req) => ({ ok: true as const, ...(await ctx.accounts.signOut(req.id, req.queued, req.wait_ms)) }),
  // how servers are reached: the proxy, trusted certificates
  networkSettings: (ctx) => ctx.network.get(),
  setNetworkSettings: (ctx, req) => ctx.network.set(req),
  peekCertificate: (ctx, req) => ctx.network.peek(req.realm_url),
  trustCertificate: (ctx, req) => ctx.network.trust(req.realm_url, req.fingerprint),
  addCertificateAuthority: (ctx, req) => ctx.network.addAuthority(req.pem),
  // the outbox: queued commands, the outbox view and its actions, online-only operations
  ...outboxHandlers,
  ...queuedHandlers,
  // the channels screen: listings, subscribers, creating channels and subscribing others
  ...channelHandlers,
};
