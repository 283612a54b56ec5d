/** What became of an invitation: sent, or refused address by address (with those invited all the same and any limit reached). */
import { For, Show } from 'solid-js';
import type { InviteOutcome } from './invite-form.js';

export function InviteResult(props: { outcome: InviteOutcome }) {
  const o = () => props.outcome;
  return (
    <div class="invite-result" classList={{ failed: !o().ok }} role={o().ok ? 'status' : 'alert'}>
      <p>{o().ok ? o().message : errorLine(o())}</p>
      <Show when={o().failed.length > 0}>
        <ul class="invite-failures" aria-label="Addresses not invited">
          <For each={o().failed}>
            {(f) => (
              <li>
                <span class="invite-email">{f.email}</span>: {f.reason}
                {f.deactivated ? ' (deactivated)' : ''}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={!o().ok && o().invited.length > 0}>
        <p>Invited: {o().invited.join(', ')}</p>
      </Show>
      <For each={o().limits}>{(l) => <p>{l}</p>}</For>
    </div>
  );
}

/** Partly sent: the server's summary as it is; refused outright: said so (errorText already does for other refusals). */
const errorLine = (o: InviteOutcome) => (o.invited.length > 0 ? o.message : o.failed.length > 0 || o.limits.length > 0 ? `The server refused: ${o.message}` : o.message);
