/**
 * The outbox panel, opened from the header's badge: every change not yet on the server (and, on
 * request, the finished ones kept for review), of every kind, in words with a link to what it
 * changes; its state, attempts, next retry (counting down), deadline and error; Retry / Discard
 * per row, "Retry all now", filters, and an empty state. A row only waiting for the connection says
 * so in words, without an attempt count or the error colour (panel-reducer.ts).
 */
import { createMemo, createResource, createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { useToasts } from '../kit/toasts.js';
import { inWords, panelRows, type PanelFilter } from './panel-reducer.js';
import { useOutbox } from '../data/outbox.js';
import { useAccounts } from '../data/accounts.js';
import { dateText } from '../kit/format.js';

const FILTERS: Array<{ value: PanelFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
  { value: 'conflict', label: 'Conflicts' },
];

export function OutboxPanel(props: { onClose: () => void; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const outbox = useOutbox();
  const toasts = useToasts();
  // With several organisations signed in, the panel says whose outbox it is.
  const accounts = useAccounts();
  const [filter, setFilter] = createSignal<PanelFilter>('all');
  const [finished, setFinished] = createSignal(false);
  const [now, setNow] = createSignal(Date.now());
  const [confirming, setConfirming] = createSignal<number | null>(null);
  // Finished rows only on request (the store keeps the unfinished ones current).
  const [done] = createResource(
    () => (finished() ? outbox.state.rows.length + (outbox.state.counts?.pending ?? 0) : false),
    () => bridge.invoke('outbox', { include_finished: true }),
  );
  const rows = createMemo(() => panelRows(finished() ? (done() ?? outbox.state.rows) : outbox.state.rows, filter()));
  const act = (what: string, f: () => Promise<void>) => void f().catch((e: unknown) => toasts.show(`Could not ${what}. ${errorText(e)}`, 'error'));
  let heading: HTMLHeadingElement | undefined;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') props.onClose();
  };
  onMount(() => {
    heading?.focus();
    document.addEventListener('keydown', onKey);
    const t = setInterval(() => setNow(Date.now()), 1000);
    onCleanup(() => clearInterval(t));
  });
  onCleanup(() => document.removeEventListener('keydown', onKey));
  return (
    <section class="outbox-panel" role="dialog" aria-labelledby="outbox-title">
      <header>
        <h2 id="outbox-title" tabIndex={-1} ref={heading}>
          {accounts.shownName() === null ? 'Outbox' : `Outbox of ${accounts.shownName() ?? ''}`}
        </h2>
        <Button variant="quiet" size="small" aria-label="Close the outbox" onClick={() => props.onClose()}>
          ✕
        </Button>
      </header>
      <p class="outbox-intro secondary-text">Changes made on this device that the server does not have yet. They are sent by themselves when the server can be reached.</p>
      <div class="outbox-tools wrap-row">
        <div role="group" aria-label="Show">
          <For each={FILTERS}>
            {(f) => (
              <Button size="small" variant={filter() === f.value ? 'primary' : 'default'} aria-pressed={filter() === f.value} onClick={() => setFilter(f.value)}>
                {f.label}
              </Button>
            )}
          </For>
        </div>
        <label class="outbox-finished">
          <input type="checkbox" checked={finished()} onChange={(e) => setFinished(e.currentTarget.checked)} /> Include finished
        </label>
        <Button size="small" onClick={() => act('retry', async () => void (await bridge.invoke('nudge', { reason: 'network' })))}>
          Retry all now
        </Button>
      </div>
      <Show when={rows().length > 0} fallback={<p class="outbox-empty secondary-text">{filter() === 'all' ? 'Nothing is waiting: everything you did is on the server.' : 'Nothing here.'}</p>}>
        <ul class="outbox-rows" aria-label="Queued changes">
          <For each={rows()}>
            {(r) => (
              <li class={`outbox-row tone-${r.waitingForNetwork ? 'waiting' : r.tone}`} aria-label={`${r.what}: ${r.stateLabel}`}>
                <div class="outbox-what">
                  <Show when={r.href} fallback={<span>{r.what}</span>}>
                    <a href={r.href ?? '#'}>{r.what}</a>
                  </Show>
                </div>
                <div class="outbox-meta">
                  <span class={`badge badge-${r.tone === 'done' ? 'pending' : r.tone}`}>{r.stateLabel}</span>
                  <Show when={r.attempts > 0}>
                    <span>{r.attempts === 1 ? '1 attempt' : `${r.attempts} attempts`}</span>
                  </Show>
                  <Show when={r.nextAttemptAt !== null}>
                    <span>next try {inWords(r.nextAttemptAt ?? 0, now())}</span>
                  </Show>
                  <Show when={r.deadlineAt !== null}>
                    <span>must be sent by {dateText(new Date(r.deadlineAt ?? 0), undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' })}</span>
                  </Show>
                </div>
                <Show when={r.note}>
                  <p class="outbox-note">{r.note}</p>
                </Show>
                <Show when={r.error}>
                  <p class="outbox-error">{r.error}</p>
                </Show>
                <div class="outbox-actions wrap-row">
                  <Show when={r.fix}>
                    {(f) => (
                      <Button size="small" aria-label={`${f().label}: ${r.what}`} onClick={() => ((location.hash = f().href), props.onClose())}>
                        {f().label}
                      </Button>
                    )}
                  </Show>
                  <Show when={r.canRetry}>
                    <Button size="small" aria-label={`Retry: ${r.what}`} onClick={() => act('retry', () => outbox.retry(r.id))}>
                      Retry
                    </Button>
                  </Show>
                  <Show when={r.canDiscard}>
                    <Show
                      when={confirming() === r.id}
                      fallback={
                        <Button size="small" variant="quiet" aria-label={`Discard: ${r.what}`} onClick={() => setConfirming(r.id)}>
                          Discard
                        </Button>
                      }
                    >
                      <span class="outbox-confirm">Discard this change?</span>
                      <Button size="small" class="danger" aria-label={`Yes, discard: ${r.what}`} onClick={() => act('discard', async () => (setConfirming(null), await outbox.discard(r.id)))}>
                        Discard
                      </Button>
                      <Button size="small" variant="quiet" onClick={() => setConfirming(null)}>
                        Keep
                      </Button>
                    </Show>
                  </Show>
                </div>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  );
}
