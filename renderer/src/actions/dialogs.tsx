/**
 * The actions' dialogs: a message's source (its raw Markdown), its edit history (every version
 * with who and when, content changes as a word diff, topic and channel moves, resolving), a move
 * of messages or of a whole topic (rename, or another channel), and deleting a topic.
 */
import { createResource, createSignal, For, Match, onMount, Show, Switch } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { Bridge } from '../core/bridge.js';
import { isBridgeError } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { useToasts } from '../kit/toasts.js';
import { formatFullTime, topicLabel } from '../kit/format.js';
import { useSettings } from '../data/settings.js';
import { useChannels } from '../data/channels.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import { rawRefusal } from '../compose/edit-store.js';
import { entryTitle, historyEntries, type Change, type DiffPart } from './history.js';
import type { PropagateMode } from '../shared/move-form.js';
import { moveChanged, moveFields, moveRequest, type MoveFields, type MoveRequest } from '../shared/move-form.js';
import { MoveFieldsView } from '../shared/MoveFieldsView.js';

/** The raw Markdown of a message, read-only (the device's copy offline; the engine says why when it has none). */
export function SourceDialog(props: { message: LocalMessage; bridge: Bridge; onClose(): void }) {
  const [raw] = createResource(() => props.message.id, (id) => props.bridge.invoke('messageRawContent', { message_id: id }).then((r) => r.raw_content));
  return (
    <Dialog title="Message source" class="source-dialog" onClose={props.onClose}>
      <Switch>
        <Match when={raw.error !== undefined}>
          <p class="error" role="alert">
            {`Cannot show the source now. ${rawRefusal(raw.error)}`}
          </p>
        </Match>
        <Match when={raw.loading}>
          <p class="hint" role="status">
            Loading the message source…
          </p>
        </Match>
        <Match when={raw() !== undefined}>
          <pre class="source-text" tabindex="0" aria-label="Raw Markdown">
            {raw()}
          </pre>
        </Match>
      </Switch>
    </Dialog>
  );
}

function Diff(props: { parts: readonly DiffPart[] }) {
  return (
    <p class="diff">
      <For each={props.parts}>
        {(p, i) => (
          <>
            {i() > 0 ? ' ' : ''}
            <Switch fallback={<span>{p.text}</span>}>
              <Match when={p.op === 'added'}>
                <ins>{p.text}</ins>
              </Match>
              <Match when={p.op === 'removed'}>
                <del>{p.text}</del>
              </Match>
            </Switch>
          </>
        )}
      </For>
    </p>
  );
}

function ChangeView(props: { change: Change; channelName(id: number): string }) {
  const c = props.change;
  switch (c.kind) {
    case 'content':
      return <Diff parts={c.diff} />;
    case 'resolved':
      return <p class="history-note">Marked the topic as resolved.</p>;
    case 'unresolved':
      return <p class="history-note">Marked the topic as unresolved.</p>;
    case 'topic':
      return (
        <p class="history-note">
          {'Topic: '}
          <del>{topicLabel(c.from)}</del>
          {' → '}
          <ins>{topicLabel(c.to)}</ins>
        </p>
      );
    case 'channel':
      return (
        <p class="history-note">
          {'Channel: '}
          <del>#{props.channelName(c.from)}</del>
          {' → '}
          <ins>#{props.channelName(c.to)}</ins>
        </p>
      );
  }
}

/** Every version of a message, oldest first: who posted or changed it, when, and what changed. */
export function HistoryDialog(props: { message: LocalMessage; bridge: Bridge; onClose(): void }) {
  const users = useUsers();
  const channels = useChannels();
  const settings = useSettings();
  const [history] = createResource(() => props.message.id, (id) => props.bridge.invoke('editHistory', { message_id: id }));
  const who = (id: number | null) => (id === null ? 'someone' : id === users.state.ownUserId ? 'you' : (users.byId().get(id)?.full_name ?? `user ${id}`));
  const channelName = (id: number) => channels.byId(id)?.name ?? `channel ${id}`;
  const entries = () => {
    const h = history();
    return h ? historyEntries(h, { userId: props.message.sender_id, timestamp: props.message.timestamp }) : [];
  };
  return (
    <Dialog title="Message edit history" class="history-dialog" onClose={props.onClose}>
      <Switch>
        <Match when={history.error !== undefined}>
          <p class="error" role="alert">
            {`Cannot show the edit history now. ${errorText(history.error)}`}
          </p>
        </Match>
        <Match when={history.loading}>
          <p class="hint" role="status">
            Loading the edit history…
          </p>
        </Match>
        <Match when={history()}>
          <p class="hint history-legend">Added words are underlined, removed ones struck through.</p>
          <ol class="history-list" aria-label="Versions">
            <For each={entries()}>
              {(e) => (
                <li class="history-entry">
                  <div class="history-head">
                    <span class="history-title">{entryTitle(e, who(e.userId))}</span>
                    <time class="time" datetime={new Date(e.timestamp * 1000).toISOString()}>
                      {formatFullTime(e.timestamp, undefined, undefined, settings.display().twentyFourHour)}
                    </time>
                  </div>
                  <For each={e.changes}>{(c) => <ChangeView change={c} channelName={channelName} />}</For>
                </li>
              )}
            </For>
          </ol>
        </Match>
      </Switch>
    </Dialog>
  );
}

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
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let form: HTMLFormElement | undefined;
  onMount(() => form?.querySelector<HTMLInputElement>('input[type="text"]')?.select());
  const submit = () => {
    const req = moveRequest(props.messageId, fields());
    if (req === null || busy()) return;
    setBusy(true);
    setError(null);
    props.bridge.invoke('moveMessages', req).then(
      () => {
        props.onMoved(req, props.from);
        props.onClose();
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorText(e));
      },
    );
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
        <Show when={error()}>
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
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
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const name = () => `${channels.byId(props.channelId)?.name ?? `channel ${props.channelId}`} › ${topicLabel(props.topic)}`;
  const remove = () => {
    setBusy(true);
    setError(null);
    props.bridge.invoke('deleteTopic', { channel_id: props.channelId, topic: props.topic }).then(
      () => {
        toasts.show(`Deleted the topic ${name()}.`);
        void channels.refresh();
        props.onClose();
      },
      (e: unknown) => {
        setBusy(false);
        setError(isBridgeError(e) && e.code === 'OFFLINE' ? 'Deleting a topic needs a connection to the server. Nothing was deleted; try again once the app is back online.' : errorText(e));
      },
    );
  };
  return (
    <Dialog title="Delete topic" class="delete-dialog" onClose={props.onClose}>
      <p>{`Delete ${name()} and all of its messages, for everyone? This cannot be undone.`}</p>
      <Show when={!status.isLive()}>
        <p class="hint" role="status">
          Deleting a topic needs a connection to the server.
        </p>
      </Show>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <DialogActions label={busy() ? 'Deleting…' : 'Delete topic'} onAction={remove} danger disabled={busy() || !status.isLive()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
