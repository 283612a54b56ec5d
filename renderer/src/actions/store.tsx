/**
 * Actions on messages and topics, for the message list, the sidebar's menus and the topic header:
 * star, react, mark unread from here, quote and reply, copy links, mute / follow, mark read, a
 * channel's personal settings (mute, pin, colour, notifications),
 * resolve, and the dialogs (message source, edit history, moves, deleting a topic), one at a time,
 * rendered by `ActionsProvider` itself. Also who is editing which message (`typingEditors`).
 *
 * Every change goes through the engine's queued commands (they answer at once, online or not; the
 * message or the sidebar shows the change while it is sent); a refusal is a toast in words. The
 * sidebar is refreshed at once after a topic change instead of waiting for the debounced refetch.
 */
import { createContext, createEffect, createMemo, createSignal, onCleanup, Show, useContext, type JSX } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { useAccounts } from '../data/accounts.js';
import { createAreaQuery, useLiveQuery } from '../core/area-query-store.js';
import { QUERY_AREAS, type MessageDeletionView } from '../../../sync/protocol/commands.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { useToasts } from '../kit/toasts.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { composeIntents } from '../compose/compose-intents.js';
import { markedUnread } from './unread-intents.js';
import { canDeleteMessage, conversationTarget, messageLink, quoteText, realmLink, unreadFromHere } from './message-actions.js';
import type { MoveRequest } from '../shared/move-form.js';
import { followMove } from '../shared/move-form.js';
import type { ReactionRequest } from './reactions.js';
import type { VisibilityPolicy } from './topic-actions.js';
import type { ChannelSettingChange } from '../data/channels-reducer.js';
import { resolvedName } from './topic-actions.js';
import { ActionDialogView } from './ActionDialogView.js';
import { copyText } from '../kit/clipboard.js';
import type { PropagateMode } from '../shared/move-form.js';
import './actions.css';

export type ActionDialog =
  | { kind: 'source'; message: LocalMessage }
  | { kind: 'history'; message: LocalMessage }
  | { kind: 'read-receipts'; message: LocalMessage }
  | { kind: 'delete-message'; message: LocalMessage }
  | { kind: 'move-message'; message: LocalMessage; propagate: PropagateMode }
  | { kind: 'move-topic'; mode: 'rename' | 'move'; channelId: number; topic: string; messageId: number }
  | { kind: 'delete-topic'; channelId: number; topic: string };

/** A topic as its menu acts on it. */
export interface TopicRef {
  channelId: number;
  topic: string;
  /** The newest message known in it (moves and resolving name one message of the topic). */
  messageId: number;
}

export interface ActionsStore {
  dialog(): ActionDialog | null;
  open(d: ActionDialog): void;
  close(): void;
  /** Other people editing the message now (user ids). */
  editorsOf(messageId: number): readonly number[];
  /** Whether to offer deleting this message (the realm's and channels' rules, offline too). */
  canDelete(m: LocalMessage): boolean;
  realmUrl(): string | null;
  toggleStar(m: LocalMessage): void;
  react(m: LocalMessage, r: ReactionRequest): void;
  markUnreadFromHere(m: LocalMessage): void;
  quote(m: LocalMessage): void;
  copyMessageLink(m: LocalMessage): void;
  copyLink(hash: string, what: string): void;
  setVisibility(channelId: number, topic: string, policy: VisibilityPolicy): void;
  markTopicRead(channelId: number, topic: string): void;
  markChannelRead(channelId: number, name: string): void;
  /** One of the channel's personal settings (mute, pin, colour, a notification), queued. */
  setChannelSetting(channelId: number, name: string, change: ChannelSettingChange): void;
  resolveTopic(t: TopicRef, resolved: boolean): void;
  /** Mute or unmute a person (queued offline): their messages are hidden while muted. */
  setUserMuted(userId: number, muted: boolean): void;
  /** After a move was queued: a view of the moved topic follows it. */
  moved(req: MoveRequest, from: { channelId: number; topic: string }): void;
}

/** How often the editors list is asked again while someone edits (the engine expires them). */
const TYPING_POLL_MS = 2000;

export function createActionsStore(bridge: Bridge): ActionsStore & { dispose(): void } {
  const toasts = useToasts();
  const channels = useChannels();
  const users = useUsers();
  const narrow = useNarrow();
  const router = useRouter();
  const accounts = useAccounts();
  const [dialog, setDialog] = createSignal<ActionDialog | null>(null);

  const typing = createAreaQuery(bridge, {
    fetch: () => bridge.invoke('typingEditors', {}),
    areas: ['typing'],
    initial: [],
    key: 'message_id',
    onError: 'reset',
  });
  // Nobody tells the page when an editor's notice expires: ask again while the list is not empty.
  createEffect(() => {
    if (typing.state.data.length === 0) return;
    const t = window.setInterval(() => void typing.refresh(), TYPING_POLL_MS);
    onCleanup(() => window.clearInterval(t));
  });
  const editors = createMemo(() => new Map(typing.state.data.map((e) => [e.message_id, e.user_ids])));
  const deletion = useLiveQuery<MessageDeletionView | null>(bridge, { fetch: () => bridge.invoke('messageDeletion', {}), areas: [...QUERY_AREAS.messageDeletion, 'accounts'], initial: null });

  const fail = (what: string) => (e: unknown) => void toasts.show(`Could not ${what}. ${errorText(e)}`, 'error');
  /** Run a command; refresh the sidebar after it when it changes topics or counts. */
  const run = (what: string, p: Promise<unknown>, sidebar = false) =>
    void p.then(
      () => (sidebar ? channels.refresh() : undefined),
      fail(what),
    );
  const userName = (id: number) => users.byId().get(id)?.full_name;
  const realmUrl = () => accounts.active()?.realm_url ?? null;
  const copy = (text: string, what: string) =>
    void copyText(text).then(
      () => toasts.show(`Copied the link to ${what}.`),
      fail(`copy the link to ${what}`),
    );

  /** A view of `from` (the topic renamed, resolved or moved) goes to where it went. */
  const follow = (from: { channelId: number; topic: string }, to: { channelId: number; topic: string }) => {
    const t = narrow.state.view?.target;
    if (t?.kind !== 'topic' || t.channelId !== from.channelId || t.topic.toLowerCase() !== from.topic.toLowerCase()) return;
    const channelName = channels.byId(to.channelId)?.name ?? (to.channelId === t.channelId ? t.channelName : '');
    router.navigate(hashOfTarget({ kind: 'topic', channelId: to.channelId, channelName, topic: to.topic }), { replace: true });
  };

  return {
    dialog,
    open: (d) => setDialog(d),
    close: () => setDialog(null),
    editorsOf: (id) => editors().get(id) ?? [],
    canDelete: (m) => canDeleteMessage(m, deletion.data, Math.floor(Date.now() / 1000)),
    realmUrl,
    toggleStar(m) {
      const starred = m.flags.includes('starred');
      run(starred ? 'unstar the message' : 'star the message', bridge.invoke('updateMessageFlags', { message_ids: [m.id], flag: 'starred', op: starred ? 'remove' : 'add' }));
    },
    react(m, r) {
      run(r.op === 'add' ? 'add the reaction' : 'remove the reaction', bridge.invoke('addOrRemoveReaction', { message_id: m.id, ...r }));
    },
    markUnreadFromHere(m) {
      const ids = unreadFromHere(narrow.state.view?.messages ?? [m], m.id);
      if (ids.length === 0) {
        toasts.show('These messages are unread already.');
        return;
      }
      const viewKey = narrow.state.view?.key ?? null;
      // Told before the change is made: its flags reach the open view before the answer does, and
      // the read-marking must already leave these ids alone when it sees them unread.
      markedUnread.announce({ viewKey, messageIds: ids });
      run('mark the messages as unread', bridge.invoke('updateMessageFlags', { message_ids: ids, flag: 'read', op: 'remove' }), true);
    },
    quote(m) {
      const own = users.state.ownUserId;
      bridge.invoke('messageRawContent', { message_id: m.id }).then((r) => {
        const text = quoteText(m, r.raw_content, { realmUrl: realmUrl(), ownUserId: own, channelName: (id) => channels.byId(id)?.name, userName });
        const target = conversationTarget(m, own);
        if (target === null) return;
        const to = target.kind === 'topic' ? { type: 'channel' as const, channelId: target.channelId, topic: target.topic } : { type: 'direct' as const, userIds: target.kind === 'dm' ? target.userIds : [] };
        composeIntents.request({ kind: 'quote', to, text, messageId: m.id });
        // The composer lives under a conversation: open it when another view is shown.
        const t = narrow.state.view?.target;
        const here = t !== undefined && ((t.kind === 'topic' && target.kind === 'topic' && t.channelId === target.channelId && t.topic.toLowerCase() === target.topic.toLowerCase()) || (t.kind === 'dm' && target.kind === 'dm' && t.userIds.join() === target.userIds.join()));
        if (!here) router.navigate(hashOfTarget({ ...target, near: m.id }, userName));
      }, fail('quote the message'));
    },
    copyMessageLink(m) {
      const link = messageLink(m, realmUrl(), users.state.ownUserId, userName);
      if (link !== null) copy(link, 'the message');
    },
    copyLink: (hash, what) => copy(realmLink(realmUrl(), hash), what),
    setVisibility(channelId, topic, policy) {
      const what = policy === 1 ? 'mute the topic' : policy === 3 ? 'follow the topic' : policy === 2 ? 'unmute the topic' : 'reset the topic to its default';
      run(what, bridge.invoke('updateUserTopic', { channel_id: channelId, topic, visibility_policy: policy }), true);
    },
    markTopicRead(channelId, topic) {
      run('mark the topic as read', bridge.invoke('markTopicAsRead', { channel_id: channelId, topic }), true);
    },
    markChannelRead(channelId, name) {
      run(`mark ${name} as read`, bridge.invoke('updateMessageFlagsForNarrow', { narrow: [{ operator: 'channel', operand: channelId }] }), true);
    },
    setChannelSetting(channelId, name, change) {
      run(`change the settings of ${name}`, bridge.invoke('updateSubscriptionSettings', { channel_id: channelId, ...change }), true);
    },
    setUserMuted(userId, muted) {
      const name = userName(userId) ?? 'the user';
      run(`${muted ? 'mute' : 'unmute'} ${name}`, bridge.invoke('setUserMuted', { user_id: userId, muted }), true);
    },
    resolveTopic(t, resolved) {
      const p = bridge.invoke('resolveTopic', { message_id: t.messageId, resolved }).then(() => follow(t, { channelId: t.channelId, topic: resolvedName(t.topic, resolved) }));
      run(resolved ? 'resolve the topic' : 'unresolve the topic', p, true);
    },
    moved(req, from) {
      const view = narrow.state.view?.target;
      const to = followMove(view?.kind === 'topic' ? { channelId: view.channelId, topic: view.topic } : null, req, from);
      if (to) follow(from, to);
      void channels.refresh();
    },
    dispose: typing.dispose,
  };
}

const Ctx = createContext<ActionsStore>();

/** The actions' store, and the one open dialog (rendered after `children`). */
export function ActionsProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const bridge = props.bridge ?? defaultBridge;
  const store = createActionsStore(bridge);
  onCleanup(store.dispose);
  return (
    <Ctx.Provider value={store}>
      {props.children}
      <Show when={store.dialog()} keyed>
        {(d) => <ActionDialogView dialog={d} bridge={bridge} onMoved={store.moved} onClose={store.close} />}
      </Show>
    </Ctx.Provider>
  );
}

export function useActions(): ActionsStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useActions() used outside <ActionsProvider>');
  return s;
}
