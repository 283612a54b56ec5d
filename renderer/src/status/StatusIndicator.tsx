/** The connection / sync status: a coloured dot, a label, a progress bar while syncing. */
import { Show } from 'solid-js';
import { useStatus } from '../data/status.js';
import './status.css';

export function StatusIndicator() {
  const status = useStatus();
  const view = () => status.view();
  return (
    <div class={`status status-${view().tone}`} role="status" aria-live="polite" title={view().detail ?? view().label}>
      <span class="status-dot" aria-hidden="true" />
      <span class="status-label">{view().label}</span>
      <Show when={view().progress}>
        {(p) => (
          <Show when={p().max !== null} fallback={<progress class="status-progress" aria-label="Sync progress" />}>
            <progress class="status-progress" aria-label="Sync progress" max={p().max ?? 0} value={p().value} />
          </Show>
        )}
      </Show>
    </div>
  );
}
