/** A centred title and explanation where a view has nothing to show (or is not built yet). */
import { Show, type JSX } from 'solid-js';

export function EmptyState(props: { title: string; children?: JSX.Element; role?: 'status' }) {
  return (
    <div class="empty-state" role={props.role}>
      <h2 class="empty-state-title">{props.title}</h2>
      <Show when={props.children}>
        <p class="empty-state-body">{props.children}</p>
      </Show>
    </div>
  );
}
