/**
 * The header's outbox badge: "N pending" / "N failed" / "N conflicts" (a status region, so the
 * counts are announced), hidden when all are zero. Its button opens the outbox panel.
 */
import { For, Show } from 'solid-js';
import { outboxBadges } from '../data/outbox-reducer.js';
import { useOutbox } from '../data/outbox.js';

export function OutboxBadge(props: { open: boolean; onToggle: () => void }) {
  const outbox = useOutbox();
  const badges = () => outboxBadges(outbox.state.counts);
  return (
    <Show when={badges().length > 0}>
      <div class="outbox-badge" role="status" aria-label="Outbox">
        {/* The name holds the visible text, badge by badge, as it reads (axe: label-content-name-mismatch). */}
        <button type="button" class="outbox-open" aria-expanded={props.open} aria-label={`Open the outbox: ${badges().map((b) => b.label).join(' ')}`} onClick={() => props.onToggle()}>
          <For each={badges()}>
            {(b, i) => (
              <>
                {i() > 0 ? ' ' : ''}
                <span class={`badge badge-${b.tone}`}>{b.label}</span>
              </>
            )}
          </For>
        </button>
      </div>
    </Show>
  );
}
