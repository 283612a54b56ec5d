/** The header's outbox badge: "N pending" / "N failed" / "N conflicts", hidden when all are zero. */
import { For, Show } from 'solid-js';
import { outboxBadges } from './outbox-reducer.js';
import { useOutbox } from './store.js';

export function OutboxBadge() {
  const outbox = useOutbox();
  const badges = () => outboxBadges(outbox.state.counts);
  return (
    <Show when={badges().length > 0}>
      <div class="outbox-badge" role="status" aria-label="Outbox">
        <For each={badges()}>{(b) => <span class={`badge badge-${b.tone}`}>{b.label}</span>}</For>
      </div>
    </Show>
  );
}
