import { Show } from 'solid-js';
import { unreadBadge } from './format.js';

/** An unread count next to a sidebar row; read as "N unread" by screen readers. */
export function UnreadBadge(props: { count: number }) {
  return (
    <Show when={props.count > 0}>
      <span class="unread">
        {unreadBadge(props.count)}
        <span class="visually-hidden"> unread</span>
      </span>
    </Show>
  );
}
