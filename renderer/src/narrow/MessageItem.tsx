/**
 * One message: avatar initials, sender, local time, edited / moved markers, the outbox marker of a
 * local change, sanitised content, and for one's own messages an Edit button opening the inline editor.
 */
import { Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { avatarTone, formatFullTime, formatMessageTime, initials, messageMarkers } from './format.js';
import { canEdit, messageMarker } from '../outbox/outbox-reducer.js';
import type { EditStore } from '../compose/edit-store.js';
import { useSettings } from '../settings/store.js';
import { DraftNote, LocalMarker } from '../outbox/LocalMarker.js';
import { MessageContent } from './MessageContent.js';
import { MessageEditor } from '../compose/MessageEditor.js';
import { Button } from '../kit/Button.js';

export interface MessageItemProps {
  message: LocalMessage;
  sender: string;
  ownUserId: number | null;
  /** The kind of the outbox row behind a local change, when known. */
  kind: string | undefined;
  edit: EditStore;
  /** The message a view opened at (`near`): marked. */
  anchor?: boolean;
  /** 1-based position in the whole view (the list is windowed), for assistive technology. */
  position?: { index: number; of: number };
  ref?: (el: HTMLLIElement) => void;
}

export function MessageItem(props: MessageItemProps) {
  const settings = useSettings();
  const hours = () => settings.display().twentyFourHour;
  const markers = () => messageMarkers(props.message);
  const local = () => messageMarker(props.message, props.kind);
  const iso = () => new Date(props.message.timestamp * 1000).toISOString();
  const editing = () => {
    const e = props.edit.current();
    return e !== null && e.messageId === props.message.id ? e : null;
  };
  return (
    <li
      ref={props.ref}
      class="message"
      classList={{ [`has-local-${props.message.local.status}`]: props.message.local.status !== 'server', 'is-anchor': props.anchor === true }}
      data-message-id={props.message.id}
      aria-posinset={props.position?.index}
      aria-setsize={props.position?.of}
    >
      <div class={`avatar tone-${avatarTone(props.message.sender_id)}`} aria-hidden="true">
        {initials(props.sender)}
      </div>
      <div class="message-body">
        <div class="message-meta">
          <span class="sender">{props.sender}</span>
          <time class="time" datetime={iso()} title={formatFullTime(props.message.timestamp, undefined, undefined, hours())}>
            {formatMessageTime(props.message.timestamp, undefined, undefined, undefined, hours())}
          </time>
          <Show when={markers().edited}>
            <span class="marker marker-edited">edited</span>
          </Show>
          <Show when={markers().moved}>
            <span class="marker marker-moved">moved</span>
          </Show>
          <Show when={local()?.status === 'pending' && local()}>{(m) => <LocalMarker marker={m()} messageId={props.message.id} />}</Show>
          <Show when={editing() === null && canEdit(props.message, props.ownUserId, props.kind)}>
            <Button variant="link" class="message-edit" aria-label="Edit message" onClick={() => props.edit.start(props.message.id)}>
              Edit
            </Button>
          </Show>
        </div>
        <Show when={editing()} fallback={<MessageContent html={props.message.content} />}>
          {(e) => <MessageEditor state={e()} store={props.edit} />}
        </Show>
        <Show when={local() !== null && local()?.status !== 'pending' && local()}>{(m) => <LocalMarker marker={m()} messageId={props.message.id} />}</Show>
        <DraftNote messageId={props.message.id} />
      </div>
    </li>
  );
}
