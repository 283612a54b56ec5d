/** One message: avatar initials, sender, local time, edited / moved markers, sanitised content. */
import { Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { avatarTone, formatFullTime, formatMessageTime, initials, messageMarkers } from '../format.js';
import { MessageContent } from './MessageContent.js';

export function MessageItem(props: { message: LocalMessage; sender: string }) {
  const markers = () => messageMarkers(props.message);
  const iso = () => new Date(props.message.timestamp * 1000).toISOString();
  return (
    <li class="message" data-message-id={props.message.id}>
      <div class={`avatar tone-${avatarTone(props.message.sender_id)}`} aria-hidden="true">
        {initials(props.sender)}
      </div>
      <div class="message-body">
        <div class="message-meta">
          <span class="sender">{props.sender}</span>
          <time class="time" datetime={iso()} title={formatFullTime(props.message.timestamp)}>
            {formatMessageTime(props.message.timestamp)}
          </time>
          <Show when={markers().edited}>
            <span class="marker marker-edited">edited</span>
          </Show>
          <Show when={markers().moved}>
            <span class="marker marker-moved">moved</span>
          </Show>
        </div>
        <MessageContent html={props.message.content} />
      </div>
    </li>
  );
}
