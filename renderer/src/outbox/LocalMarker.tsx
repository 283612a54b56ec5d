/**
 * A message's outbox marker: pending (clock, "sending" / "saving"), failed (red, Retry / Discard)
 * or conflict (ConflictPanel: both versions, Keep mine / Take theirs / Edit a merge). Taking theirs
 * answers the user's own text: `DraftNote` shows it under the message so it is not lost.
 */
import { Match, Show, Switch } from 'solid-js';
import { partialMoveOffer, type Marker } from '../data/outbox-reducer.js';
import { bridge } from '../core/bridge.js';
import { useOutbox } from '../data/outbox.js';
import { ConflictPanel } from './ConflictPanel.js';
import { Button } from '../kit/Button.js';
import './outbox.css';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';

export function LocalMarker(props: { marker: Marker; messageId: number }) {
  const outbox = useOutbox();
  const command = useCommand((f: () => Promise<unknown>) => f());
  const busy = command.busy;
  const error = command.error;
  const offer = () => partialMoveOffer(outbox.state.rows.find((r) => r.outbox_id === props.marker.outboxId));

  const act = (f: (id: number) => Promise<unknown>) => {
    const id = props.marker.outboxId;
    if (id === null || busy()) return;
    void command.run(() => f(id));
  };

  return (
    <>
      <Switch>
        <Match when={props.marker.status === 'pending'}>
          <span class="marker marker-pending">
            {/* Drawn in CSS: an emoji clock depends on the system's fonts. */}
            <span class="clock" aria-hidden="true" />
            {props.marker.label}
          </span>
        </Match>
        <Match when={props.marker.status === 'failed' && props.marker}>
          {(m) => (
            <div class="local-banner local-failed" role="alert" title={m().reason ?? undefined}>
              <span class="local-title">{m().label}</span>
              <Show when={m().detail}>{(d) => <span class="local-detail">{d()}</span>}</Show>
              <Button size="small" disabled={busy()} onClick={() => act(outbox.retry)}>
                Retry
              </Button>
              <Button variant="quiet" size="small" disabled={busy()} onClick={() => act(outbox.discard)}>
                Discard
              </Button>
              <Show when={offer()}>
                {(o) => (
                  <Button
                    size="small"
                    disabled={busy()}
                    onClick={() =>
                      act(async (id) => {
                        // The part the user may move goes as a new move; the refused one is dropped.
                        await bridge.invoke('updateMessageMove', o().request);
                        await outbox.discard(id);
                      })
                    }
                  >
                    {o().label}
                  </Button>
                )}
              </Show>
            </div>
          )}
        </Match>
        <Match when={props.marker.status === 'conflict' && props.marker}>
          {(m) => <ConflictPanel marker={m()} messageId={props.messageId} busy={busy()} act={act} />}
        </Match>
      </Switch>
      <ErrorText class="local-error" message={error()} />
    </>
  );
}

/** The user's own text of an edit they gave up for someone else's (take theirs), until dismissed. */
export function DraftNote(props: { messageId: number }) {
  const outbox = useOutbox();
  return (
    <Show when={outbox.state.drafts[props.messageId]}>
      {(d) => (
        <details class="local-draft" open>
          <summary>Your text (not saved)</summary>
          <pre class="draft-text">{d()}</pre>
          <Button variant="quiet" size="small" onClick={() => outbox.dismissDraft(props.messageId)}>
            Dismiss
          </Button>
        </details>
      )}
    </Show>
  );
}
