/**
 * The actions' dialogs that change things: a move of messages or of a whole topic (rename, or
 * another channel), and deleting a topic.
 */
import { createSignal, onMount, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { isBridgeError } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { topicLabel } from '../kit/format.js';
import { useChannels } from '../data/channels.js';
import { useStatus } from '../data/status.js';
import type { PropagateMode } from '../shared/move-form.js';
import { moveChanged, moveFields, moveRequest, type MoveFields, type MoveRequest } from '../shared/move-form.js';
import { MoveFieldsView } from '../shared/MoveFieldsView.js';

export interface MoveDialogProps {
  title: string;
  submit: string;
  messageId: number;
  from: { channelId: number; topic: string };
  propagate: PropagateMode;
  /** Offer moving to another channel. */
  channel: boolean;
  bridge: Bridge;
  onMoved(req: MoveRequest, from: { channelId: number; topic: string }): void;
  onClose(): void;
}

/** Move messages, or rename / move a topic: the fields, which messages, the notices; Zulip's form. */
export function MoveDialog(props: MoveDialogProps) {
  const channels = useChannels();
  const [fields, setFields] = createSignal<MoveFields>(moveFields(props.from, props.propagate));
  const move = useCommand((req: MoveRequest) => props.bridge.invoke('updateMessageMove', req));
  const busy = move.busy;
  let form: HTMLFormElement | undefined;
  onMount(() => form?.querySelector<HTMLInputElement>('input[type="text"]')?.select());
  const submit = () => {
    const req = moveRequest(props.messageId, fields());
    if (req === null || busy()) return;
    void move.run(req).then((ok) => {
      if (!ok) return;
      props.onMoved(req, props.from);
      props.onClose();
    });
  };
  return (
    <Dialog title={props.title} class="move-dialog" onClose={props.onClose}>
      <form
        ref={form}
        class="move-form"
        aria-label={props.title}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <MoveFieldsView
          fields={fields()}
          onChange={(patch) => setFields({ ...fields(), ...patch })}
          channels={channels.state.channels}
          channel={props.channel}
          topicLabel="New topic"
          channelLabel="New channel"
          options
          disabled={busy()}
        />
        <ErrorText message={move.error()} />
        <DialogActions label={busy() ? 'Moving…' : props.submit} disabled={busy() || !moveChanged(fields())} onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}

/** Delete a topic (administrators): asks first; needs a connection, and says so when there is none. */
export function DeleteTopicDialog(props: { channelId: number; topic: string; bridge: Bridge; onClose(): void }) {
  const status = useStatus();
  const channels = useChannels();
  const toasts = useToasts();
  const remove = useCommand(() => props.bridge.invoke('deleteTopic', { channel_id: props.channelId, topic: props.topic }), {
    describe: (e) => (isBridgeError(e) && e.code === 'OFFLINE' ? 'Deleting a topic needs a connection to the server. Nothing was deleted; try again once the app is back online.' : errorText(e)),
  });
  const busy = remove.busy;
  const name = () => `${channels.byId(props.channelId)?.name ?? `channel ${props.channelId}`} › ${topicLabel(props.topic)}`;
  const go = () =>
    void remove.run().then((ok) => {
      if (!ok) return;
      toasts.show(`Deleted the topic ${name()}.`);
      void channels.refresh();
      props.onClose();
    });
  return (
    <Dialog title="Delete topic" class="delete-dialog" onClose={props.onClose}>
      <p>{`Delete ${name()} and all of its messages, for everyone? This cannot be undone.`}</p>
      <Show when={!status.isLive()}>
        <p class="hint" role="status">
          Deleting a topic needs a connection to the server.
        </p>
      </Show>
      <ErrorText message={remove.error()} />
      <DialogActions label={busy() ? 'Deleting…' : 'Delete topic'} onAction={go} danger disabled={busy() || !status.isLive()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}

/**
 * "Delete message", confirmed first (as Zulip web): queued like every change, so offline it says it
 * will be deleted once the server is back; the message shows "deleting" until the server has done it.
 */
export function DeleteMessageDialog(props: { message: LocalMessage; bridge: Bridge; onClose(): void }) {
  const status = useStatus();
  const toasts = useToasts();
  const remove = useCommand(() => props.bridge.invoke('deleteMessage', { message_id: props.message.id }));
  const go = () =>
    void remove.run().then((ok) => {
      if (!ok) return;
      toasts.show(status.isLive() ? 'Deleting the message.' : 'The message will be deleted when the app is back online.');
      props.onClose();
    });
  return (
    <Dialog title="Delete message" class="delete-dialog" onClose={props.onClose}>
      <p>Delete this message for everyone? This cannot be undone.</p>
      <Show when={!status.isLive()}>
        <p class="hint" role="status">
          You are offline: it will be deleted when the server can be reached, unless you discard the change from the outbox first.
        </p>
      </Show>
      <ErrorText message={remove.error()} />
      <DialogActions label={remove.busy() ? 'Deleting…' : 'Delete'} onAction={go} danger disabled={remove.busy()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
