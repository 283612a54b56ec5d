/**
 * The connection / sync status: a coloured dot, a label, a progress bar while syncing. Its
 * accessible name is the whole state as a sentence, with what waits in the outbox; the engine's
 * technical reason is only the tooltip. With several organisations signed in it starts with the
 * shown one's name.
 */
import { Show } from 'solid-js';
import { useAccounts } from '../data/accounts.js';
import { useOutbox } from '../data/outbox.js';
import { useStatus } from '../data/status.js';
import './status.css';

export function StatusIndicator() {
  const status = useStatus();
  const outbox = useOutbox();
  const accounts = useAccounts();
  const view = () => status.view(outbox.state.counts?.pending ?? null);
  // With several organisations signed in, the status says whose it is.
  const org = (text: string) => {
    const name = accounts.shownName();
    return name === null ? text : `${name}: ${text}`;
  };
  return (
    <div class={`status status-${view().tone}`} role="status" aria-live="polite" aria-label={org(view().name)} title={org(view().detail ?? view().name)}>
      <span class="status-dot" aria-hidden="true" />
      <span class="status-label">{org(view().label)}</span>
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
