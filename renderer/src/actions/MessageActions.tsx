/**
 * A message's actions: a bar at its top right, shown on hover and whenever focus is inside the
 * message (so the keyboard reaches it), with Add emoji reaction, Edit (one's own messages), Star /
 * Unstar and a menu: Quote and reply, Edit message, Move messages, Mark as unread from here,
 * Star / Unstar, Copy link to message, View message source, View edit history, Read receipts, Mute / Unmute the
 * sender (another person's message), Delete message (as the realm's rules allow: `canDeleteMessage`). A starred message
 * keeps its star visible. What each does is in actions/store.tsx.
 */
import { createSignal, onCleanup, Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { Menu, MenuItem, MenuSeparator } from '../kit/Menu.js';
import { MoreIcon, PencilIcon, ReactIcon, StarIcon } from '../kit/icons.js';
import { ReactionButton } from './EmojiPicker.js';
import { isSent } from './message-actions.js';
import { useActions } from './store.js';
import { messageIntents } from './message-intents.js';

export interface MessageActionsProps {
  message: LocalMessage;
  ownUserId: number | null;
  /** One's own message whose content can be edited now. */
  canEdit: boolean;
  /** The user may move this message (a channel message, a role allowed to move). */
  canMove: boolean;
  /** Open the inline editor. */
  onEdit(): void;
  /** Open the move dialog. */
  onMove(): void;
  /** The user muted the message's sender (the menu offers Unmute). */
  senderMuted: boolean;
}

export function MessageActions(props: MessageActionsProps) {
  const actions = useActions();
  // While a menu or the picker is open the bar stays visible, hovered or not.
  const [held, setHeld] = createSignal(0);
  const hold = (open: boolean) => setHeld((n) => Math.max(0, n + (open ? 1 : -1)));
  const starred = () => props.message.flags.includes('starred');
  const starLabel = () => (starred() ? 'Unstar message' : 'Star message');
  // The `:` shortcut on this message opens the picker as its button does.
  let openPicker: (() => void) | undefined;
  onCleanup(messageIntents.subscribe((e) => e.messageId === props.message.id && e.what === 'react' && openPicker?.()));
  const edited = () => props.message.last_edit_timestamp !== null || props.message.last_moved_timestamp !== null;
  return (
    <div class="message-actions" classList={{ held: held() > 0, starred: starred() }} role="group" aria-label="Message actions">
      <Show when={isSent(props.message)}>
        <ReactionButton message={props.message} ownUserId={props.ownUserId} label="Add emoji reaction" class="action-button" onReact={(r) => actions.react(props.message, r)} onOpenChange={hold} opener={(open) => (openPicker = open)}>
          <ReactIcon />
        </ReactionButton>
      </Show>
      <Show when={props.canEdit}>
        <button type="button" class="action-button" aria-label="Edit message" title="Edit message" onClick={() => props.onEdit()}>
          <PencilIcon />
        </button>
      </Show>
      <Show when={isSent(props.message)}>
        <button type="button" class="action-button star-button" aria-label={starLabel()} title={starLabel()} onClick={() => actions.toggleStar(props.message)}>
          <StarIcon filled={starred()} />
        </button>
        <Menu label="More message actions" button={<MoreIcon />} buttonClass="action-button" onOpenChange={hold}>
          <MenuItem onSelect={() => actions.quote(props.message)}>Quote and reply</MenuItem>
          <Show when={props.canEdit}>
            <MenuItem onSelect={() => props.onEdit()}>Edit message</MenuItem>
          </Show>
          <Show when={props.canMove}>
            <MenuItem onSelect={() => props.onMove()}>Move messages…</MenuItem>
          </Show>
          <MenuSeparator />
          <MenuItem onSelect={() => actions.markUnreadFromHere(props.message)}>Mark as unread from here</MenuItem>
          <MenuItem onSelect={() => actions.toggleStar(props.message)}>{starLabel()}</MenuItem>
          <MenuSeparator />
          <MenuItem onSelect={() => actions.copyMessageLink(props.message)}>Copy link to message</MenuItem>
          <MenuItem onSelect={() => actions.open({ kind: 'source', message: props.message })}>View message source</MenuItem>
          <Show when={edited()}>
            <MenuItem onSelect={() => actions.open({ kind: 'history', message: props.message })}>View edit history</MenuItem>
          </Show>
          <MenuItem onSelect={() => actions.open({ kind: 'read-receipts', message: props.message })}>Read receipts</MenuItem>
          <Show when={props.ownUserId !== null && props.message.sender_id !== props.ownUserId}>
            <MenuItem onSelect={() => actions.setUserMuted(props.message.sender_id, !props.senderMuted)}>{props.senderMuted ? 'Unmute the sender' : 'Mute the sender'}</MenuItem>
          </Show>
          <Show when={actions.canDelete(props.message)}>
            <MenuSeparator />
            <MenuItem onSelect={() => actions.open({ kind: 'delete-message', message: props.message })}>Delete message</MenuItem>
          </Show>
        </Menu>
      </Show>
    </div>
  );
}
