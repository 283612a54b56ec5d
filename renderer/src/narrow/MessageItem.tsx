/**
 * One message: avatar initials, sender, local time, edited / moved markers (buttons opening the
 * edit history), the outbox marker of a local change, sanitised content or its poll or to-do
 * list (or the inline editor),
 * reactions, who else is editing it, and its actions (actions/MessageActions.tsx).
 */
import { createSignal, onCleanup, Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { AvatarImage } from '../shared/AvatarImage.js';
import { avatarTone, formatFullTime, formatMessageTime, initials, messageMarkers } from '../kit/format.js';
import { canEdit, messageMarker } from '../data/outbox-reducer.js';
import type { EditStore } from '../compose/edit-store.js';
import { useSettings } from '../data/settings.js';
import { DraftNote, LocalMarker } from '../outbox/LocalMarker.js';
import { MessageContent } from '../shared/MessageContent.js';
import { MessageWidget } from '../widgets/MessageWidget.js';
import { MessageEditor } from '../compose/MessageEditor.js';
import { MessageActions } from '../actions/MessageActions.js';
import { Reactions } from '../actions/Reactions.js';
import { useActions } from '../actions/store.js';
import { messageIntents } from '../actions/message-intents.js';
import { canMoveMessages, editingText, isSent, suggestedPropagate, topicPlacement } from '../actions/message-actions.js';
import { moveFields } from '../shared/move-form.js';
import { useUsers } from '../data/users.js';
import { useNarrow } from '../data/narrow.js';
import { StarIcon } from '../kit/icons.js';
import { cardButtonName, openUserCard } from '../people/UserCard.js';

/** What a muted sender's messages show instead of the name and the content (as Zulip words them). */
export const MUTED_SENDER = 'Muted user';
export const MUTED_NOTICE = 'This message was hidden because you have muted the sender.';

export interface MessageItemProps {
  message: LocalMessage;
  sender: string;
  ownUserId: number | null;
  /** The kind of the outbox row behind a local change, when known. */
  kind: string | undefined;
  edit: EditStore;
  /** The message a view opened at (`near`): marked. */
  anchor?: boolean;
  /** Continues its sender's group (list-layout.ts): no avatar or name again (the name stays for screen readers). */
  continued?: boolean;
  /**
   * Whether the actions bar is rendered (default true): a view's first frame leaves it out, it
   * comes right after (it is hidden until hovered or focused anyway).
   */
  actions?: boolean;
  /** The words of the view's search, marked in the content when the server did not mark them (`match_content`). */
  highlight?: string | null;
  /** 1-based position in the whole view (the list is windowed), for assistive technology. */
  position?: { index: number; of: number };
  ref?: (el: HTMLLIElement) => void;
}

export function MessageItem(props: MessageItemProps) {
  const settings = useSettings();
  const actions = useActions();
  const users = useUsers();
  const narrow = useNarrow();
  const hours = () => settings.display().twentyFourHour;
  const markers = () => messageMarkers(props.message);
  const local = () => messageMarker(props.message, props.kind);
  const iso = () => new Date(props.message.timestamp * 1000).toISOString();
  const editing = () => {
    const e = props.edit.current();
    return e !== null && e.messageId === props.message.id ? e : null;
  };
  const editable = () => canEdit(props.message, props.ownUserId, props.kind);
  const movable = () => props.message.type === 'channel' && props.message.channel_id !== null && isSent(props.message) && canMoveMessages(users.state.ownRole);
  /** Which messages a move takes by default: by the message's place in its topic, as Zulip suggests. */
  const propagate = () => {
    const v = narrow.state.view;
    const place = v ? topicPlacement(v.messages, props.message, { oldestShown: v.before.found_end, newestShown: v.after.found_end }) : { isFirst: false, isLast: false };
    return suggestedPropagate(place.isFirst, place.isLast);
  };
  const startEdit = () => {
    const m = props.message;
    const move = movable() && m.channel_id !== null ? moveFields({ channelId: m.channel_id, topic: m.topic }, propagate()) : null;
    props.edit.start(m.id, { content: editable(), move });
  };
  // The `e` shortcut on this message: what its Edit button does, when it has one.
  onCleanup(messageIntents.subscribe((e) => e.messageId === props.message.id && e.what === 'edit' && editing() === null && (editable() || movable()) && startEdit()));
  const openHistory = () => actions.open({ kind: 'history', message: props.message });
  // A muted sender's message is hidden behind a notice until shown (Zulip: "Muted user").
  const [revealed, setRevealed] = createSignal(false);
  const senderMuted = () => props.message.sender_id !== props.ownUserId && users.isMuted(props.message.sender_id);
  const hidden = () => senderMuted() && !revealed();
  const sender = () => (hidden() ? MUTED_SENDER : props.sender);
  const typing = () => editingText(actions.editorsOf(props.message.id), props.ownUserId, (id) => users.byId().get(id)?.full_name);
  return (
    <li
      ref={props.ref}
      class="message"
      classList={{ [`has-local-${props.message.local.status}`]: props.message.local.status !== 'server', 'is-anchor': props.anchor === true, 'is-continued': props.continued === true, 'is-editing': editing() !== null }}
      data-message-id={props.message.id}
      aria-posinset={props.position?.index}
      aria-setsize={props.position?.of}
    >
      <Show
        when={!hidden()}
        fallback={<div class="avatar avatar-muted" aria-hidden="true" />}
      >
        {/* The avatar and the name open the sender's card (people/UserCard.tsx); the avatar is a second way, out of the tab order. */}
        <button type="button" class={`avatar avatar-button tone-${avatarTone(props.message.sender_id)}`} tabIndex={-1} aria-label={cardButtonName(props.sender)} data-initials={initials(props.sender)} onClick={(e) => openUserCard(props.message.sender_id, e.currentTarget)}>
          <AvatarImage url={props.message.avatar_url} />
        </button>
      </Show>
      <div class="message-body">
        <div class="message-meta">
          <Show when={!hidden()} fallback={<span class="sender">{sender()}</span>}>
            <button type="button" class="sender sender-button" aria-label={cardButtonName(sender())} onClick={(e) => openUserCard(props.message.sender_id, e.currentTarget)}>
              {sender()}
            </button>
          </Show>
          <time class="time" datetime={iso()} title={formatFullTime(props.message.timestamp, undefined, undefined, hours())}>
            {formatMessageTime(props.message.timestamp, undefined, undefined, undefined, hours())}
          </time>
          <Show when={markers().edited}>
            <button type="button" class="marker marker-edited" title="View edit history" onClick={openHistory}>
              edited
            </button>
          </Show>
          <Show when={markers().moved}>
            <button type="button" class="marker marker-moved" title="View edit history" onClick={openHistory}>
              moved
            </button>
          </Show>
          <Show when={props.message.flags.includes('starred')}>
            <span class="marker-starred" role="img" aria-label="Starred">
              <StarIcon filled />
            </span>
          </Show>
          <Show when={local()?.status === 'pending' && local()}>{(m) => <LocalMarker marker={m()} messageId={props.message.id} />}</Show>
        </div>
        <Show when={editing() === null && props.actions !== false}>
          <MessageActions message={props.message} ownUserId={props.ownUserId} canEdit={editable()} canMove={movable()} onEdit={startEdit} onMove={() => actions.open({ kind: 'move-message', message: props.message, propagate: propagate() })} senderMuted={senderMuted()} />
        </Show>
        <Show
          when={!hidden()}
          fallback={
            <p class="muted-notice">
              {MUTED_NOTICE}{' '}
              <button type="button" class="link-button" onClick={() => setRevealed(true)}>
                Show message
              </button>
            </p>
          }
        >
          <Show when={editing()} fallback={<MessageWidget message={props.message} ownUserId={props.ownUserId} fallback={<MessageContent html={props.message.match_content ?? props.message.content} highlight={props.message.match_content === undefined ? (props.highlight ?? null) : null} />} />}>
            {(e) => <MessageEditor state={e()} store={props.edit} canChangeChannel={movable()} conversation={props.message.channel_id === null ? { kind: 'dm' } : { kind: 'channel', channelId: props.message.channel_id, topic: props.message.topic }} />}
          </Show>
        </Show>
        <Reactions message={props.message} />
        <Show when={typing()}>
          {(t) => (
            <p class="typing-edit" role="status">
              {t()}
            </p>
          )}
        </Show>
        <Show when={local() !== null && local()?.status !== 'pending' && local()}>{(m) => <LocalMarker marker={m()} messageId={props.message.id} />}</Show>
        <DraftNote messageId={props.message.id} />
      </div>
    </li>
  );
}
