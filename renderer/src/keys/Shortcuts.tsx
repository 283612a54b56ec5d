/**
 * The keyboard shortcuts (keymap.ts says which key does what): one keydown listener on the
 * document while the main screen is up, and the "Keyboard shortcuts" button with its dialog (a
 * modal <dialog>: focus stays inside, Escape closes it and the focus goes back).
 */
import { onCleanup } from 'solid-js';
import { useCompose } from '../data/compose.js';
import { Button } from '../kit/Button.js';
import { dmPeers } from '../data/narrow-reducer.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { useActions } from '../actions/store.js';
import { messageIntents } from '../actions/message-intents.js';
import { isSent } from '../actions/message-actions.js';
import { reactionToggle } from '../actions/reactions.js';
import { buildHash } from '../core/hash.js';
import { commandOf, isControlElement, isTypingElement, muteToggle, unreadTopicFrom, type KeyCommand } from './keymap.js';
import { useSelection } from './selection.js';
import { stepSelection, type StepCommand } from './step-selection.js';
import { ShortcutsHelp } from './ShortcutsHelp.js';
import './keys.css';

export function Shortcuts() {
  const selection = useSelection();
  const compose = useCompose();
  const narrow = useNarrow();
  const router = useRouter();
  const channels = useChannels();
  const users = useUsers();
  const actions = useActions();
  let dialog: HTMLDialogElement | undefined;

  const openHelp = () => {
    if (!dialog || dialog.open) return;
    dialog.showModal();
    // The focus lands on Close, at the bottom: the list is read from its top.
    dialog.scrollTop = 0;
  };

  /** Move the selection; false without a message list (the key keeps its own meaning, scrolling say). */
  const move = (cmd: StepCommand): boolean => {
    const list = selection.list();
    const msgs = list?.messages() ?? [];
    if (!list || msgs.length === 0) return false;
    const id = stepSelection(
      msgs.map((m) => m.id),
      selection.selected(),
      () => list.onScreen(),
      cmd,
    );
    if (id === undefined) return false;
    selection.select(id, { focus: true });
    if (cmd === 'last') list.toBottom();
    else list.reveal(id);
    return true;
  };

  /** The selected message, if the open list has one. */
  const selectedMessage = () => {
    const id = selection.selected();
    return id === null ? undefined : selection.list()?.messages().find((x) => x.id === id);
  };

  const reply = () => {
    const view = selection.list()?.target();
    const m = selectedMessage();
    if (!m) {
      compose.focus();
      return;
    }
    if (m.type === 'channel' && m.channel_id !== null) {
      if (view?.kind === 'topic' && view.channelId === m.channel_id && view.topic.toLowerCase() === m.topic.toLowerCase()) compose.focus();
      else compose.openReply({ type: 'channel', channel_id: m.channel_id, topic: m.topic });
      return;
    }
    const peers = dmPeers(m, users.state.ownUserId);
    if (view?.kind === 'dm' && view.userIds.join(',') === peers.join(',')) compose.focus();
    else compose.openReply({ type: 'direct', user_ids: peers });
  };

  const currentChannel = (): number | null => {
    const t = narrow.state.view?.target;
    if (t?.kind === 'channel' || t?.kind === 'topic') return t.channelId;
    const m = selectedMessage();
    return m?.type === 'channel' ? m.channel_id : null;
  };

  const unreadTopic = (step: 1 | -1) => {
    const t = narrow.state.view?.target;
    const current = t?.kind === 'topic' ? { channelId: t.channelId, topic: t.topic } : t?.kind === 'channel' ? { channelId: t.channelId, topic: null } : null;
    const next = unreadTopicFrom(channels.state.channels, current, step);
    if (next) router.navigate(hashOfTarget({ kind: 'topic', ...next }));
  };

  /** Shift+M: the same change the topic menu's visibility choices make. */
  const toggleMute = (channelId: number, topic: string) => {
    const c = channels.byId(channelId);
    if (!c) return false;
    const policy = c.topics.find((t) => t.topic.toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
    actions.setVisibility(channelId, topic, muteToggle(c.is_muted, policy));
    return true;
  };

  /** A shortcut on the selected message: what its actions bar and menu do (actions/store.tsx). */
  const onMessage = (cmd: 'edit' | 'star' | 'thumbsUp' | 'reactions' | 'quote' | 'markUnread' | 'muteTopic'): boolean => {
    const m = selectedMessage();
    if (!m) return false;
    // A message still being sent can only be edited (as its actions bar offers).
    if (cmd !== 'edit' && !isSent(m)) return false;
    switch (cmd) {
      case 'edit':
        messageIntents.request({ messageId: m.id, what: 'edit' });
        return true;
      case 'reactions':
        messageIntents.request({ messageId: m.id, what: 'react' });
        return true;
      case 'star':
        actions.toggleStar(m);
        return true;
      case 'thumbsUp':
        // As Zulip's `+` does: the thumbs up by its first name, "+1".
        actions.react(m, reactionToggle(m.reactions, users.state.ownUserId, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
        return true;
      case 'quote':
        actions.quote(m);
        return true;
      case 'markUnread':
        actions.markUnreadFromHere(m);
        return true;
      case 'muteTopic':
        return m.type === 'channel' && m.channel_id !== null && toggleMute(m.channel_id, m.topic);
    }
  };

  const run = (cmd: KeyCommand, target: Element | null): boolean => {
    switch (cmd) {
      case 'edit':
      case 'star':
      case 'thumbsUp':
      case 'reactions':
      case 'quote':
      case 'markUnread':
      case 'muteTopic':
        return onMessage(cmd);
      case 'inbox':
        router.navigate(buildHash({ kind: 'inbox' }));
        return true;
      case 'recent':
        router.navigate(buildHash({ kind: 'recent' }));
        return true;
      case 'feed':
        router.navigate(hashOfTarget({ kind: 'feed' }));
        return true;
      case 'starred':
        router.navigate(hashOfTarget({ kind: 'starred' }));
        return true;
      case 'drafts':
        router.navigate(buildHash({ kind: 'other', section: 'drafts' }));
        return true;
      case 'next':
      case 'prev':
      case 'first':
      case 'last':
        return move(cmd);
      case 'nextUnread':
        unreadTopic(1);
        return true;
      case 'prevUnread':
        unreadTopic(-1);
        return true;
      case 'reply':
        reply();
        return true;
      case 'newTopic':
        compose.openNewTopic(currentChannel());
        return true;
      case 'newDm':
        compose.openNewDm();
        return true;
      case 'search': {
        const box = document.querySelector<HTMLInputElement>('input[type="search"]');
        if (!box) return false;
        box.focus();
        box.select();
        return true;
      }
      case 'escape':
        if (target instanceof HTMLElement && isTypingElement(target) && target.closest('[role="search"]')) {
          target.blur();
          return true;
        }
        if (compose.mode() !== null) {
          compose.close();
          return true;
        }
        if (selection.selected() !== null) {
          selection.select(null);
          return true;
        }
        return false;
      case 'help':
        openHelp();
        return true;
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.defaultPrevented) return;
    // The help dialog is modal: it keeps its keys (Escape closes it natively).
    if (dialog?.open) return;
    const target = e.target instanceof Element ? e.target : null;
    // Any other dialog or menu keeps its keys too (Escape closes it, not the composer behind it).
    if (document.querySelector('dialog[open]') !== null || target?.closest('dialog[open], [role="dialog"], [role="alertdialog"], [role="menu"]')) return;
    const cmd = commandOf(e, { typing: isTypingElement(target as HTMLInputElement | null), control: isControlElement(target) });
    if (cmd === null) return;
    if (run(cmd, target)) e.preventDefault();
  };
  document.addEventListener('keydown', onKeyDown);
  onCleanup(() => document.removeEventListener('keydown', onKeyDown));

  return (
    <>
      <Button variant="quiet" class="shortcuts-button" aria-keyshortcuts="?" aria-haspopup="dialog" onClick={openHelp}>
        Shortcuts
      </Button>
      <ShortcutsHelp ref={(el) => (dialog = el)} />
    </>
  );
}
