import { createMemo, createSignal, Show } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { useOutbox } from '../data/outbox.js';
import { subscriptionMarker, subscriptionState } from './channels-model.js';

/** Subscribe / Unsubscribe for one channel, with its outbox state (not saved yet; failed: the server's words, Retry / Discard). */
export function SubscribeControl(props: { bridge: Bridge; channel: ChannelListing }) {
  const outbox = useOutbox();
  const toasts = useToasts();
  const command = useCommand((f: () => Promise<unknown>) => f());
  const busy = command.busy;
  const [confirming, setConfirming] = createSignal(false);
  const state = createMemo(() => subscriptionState(outbox.state.rows, props.channel.name));
  const act = (f: () => Promise<unknown>) => {
    if (!busy()) void command.run(f);
  };
  const subscribe = () => act(() => props.bridge.invoke('subscribe', { channels: [{ name: props.channel.name }] }));
  const unsubscribe = () => act(() => props.bridge.invoke('unsubscribe', { channels: [props.channel.name] }).then(() => setConfirming(false)));
  return (
    <div class="channel-subscription">
      <Show when={state()}>
        {(s) => (
          <Show
            when={s().status === 'failed'}
            fallback={
              <span class="badge badge-pending" title={s().action === 'subscribe' ? 'The subscription is queued and will be sent when the server is reachable.' : 'The unsubscribe is queued and will be sent when the server is reachable.'}>
                {subscriptionMarker(s())}
              </span>
            }
          >
            <div class="channel-failed" role="alert">
              <span class="badge badge-failed">{subscriptionMarker(s())}</span>
              <span class="channel-failed-reason">{s().error}</span>
              <Button size="small" disabled={busy()} aria-label={`Retry: ${s().action} ${props.channel.name}`} onClick={() => act(() => outbox.retry(s().outboxId))}>
                Retry
              </Button>
              <Button size="small" variant="quiet" disabled={busy()} aria-label={`Discard: ${s().action} ${props.channel.name}`} onClick={() => act(() => outbox.discard(s().outboxId).then(() => toasts.show('Change discarded.')))}>
                Discard
              </Button>
            </div>
          </Show>
        )}
      </Show>
      <Show
        when={props.channel.subscribed}
        fallback={
          <Show when={props.channel.can_subscribe} fallback={<span class="hint">You cannot subscribe yourself here.</span>}>
            <Button size="small" variant="primary" disabled={busy()} aria-label={`Subscribe to ${props.channel.name}`} onClick={subscribe}>
              Subscribe
            </Button>
          </Show>
        }
      >
        <Button size="small" disabled={busy()} aria-label={`Unsubscribe from ${props.channel.name}`} onClick={() => (props.channel.invite_only ? setConfirming(true) : unsubscribe())}>
          Unsubscribe
        </Button>
      </Show>
      <ErrorText message={command.error()} />
      <Show when={confirming()}>
        <Dialog title="Unsubscribe from a private channel" onClose={() => setConfirming(false)}>
          <p>{`Unsubscribe from #${props.channel.name}? It is private: you may not be able to subscribe again without an invitation.`}</p>
          <DialogActions label="Unsubscribe" onAction={unsubscribe} danger disabled={busy()} onCancel={() => setConfirming(false)} />
        </Dialog>
      </Show>
    </div>
  );
}
