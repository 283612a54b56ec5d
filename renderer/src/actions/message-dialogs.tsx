/** A message's source (its raw Markdown) and its edit history (every version: who, when, a word diff, moves, resolving). */
import { createResource, For, Match, Switch, type JSX, type Resource } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Dialog } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { formatFullTime, topicLabel } from '../kit/format.js';
import { useSettings } from '../data/settings.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { rawRefusal } from '../compose/edit-store.js';
import { entryTitle, historyEntries, type Change, type DiffPart } from './history.js';

/** What a fetched resource shows: why it failed, that it is loading, or (once there) its value. */
export function Fetched<T>(props: { resource: Resource<T>; failed: (error: unknown) => string; loading: string; children: (value: T) => JSX.Element }) {
  return (
    <Switch>
      <Match when={props.resource.error !== undefined}>
        <ErrorText message={props.failed(props.resource.error)} />
      </Match>
      <Match when={props.resource.loading}>
        <p class="hint" role="status">
          {props.loading}
        </p>
      </Match>
      <Match when={props.resource() !== undefined}>{props.children(props.resource() as T)}</Match>
    </Switch>
  );
}

/** The raw Markdown of a message, read-only (the device's copy offline; the engine says why when it has none). */
export function SourceDialog(props: { message: LocalMessage; bridge: Bridge; onClose(): void }) {
  const [raw] = createResource(() => props.message.id, (id) => props.bridge.invoke('messageRawContent', { message_id: id }).then((r) => r.raw_content));
  return (
    <Dialog title="Message source" class="source-dialog" onClose={props.onClose}>
      <Fetched resource={raw} failed={(e) => `Cannot show the source now. ${rawRefusal(e)}`} loading="Loading the message source…">
        {(text) => (
          <pre class="source-text" tabindex="0" aria-label="Raw Markdown">
            {text}
          </pre>
        )}
      </Fetched>
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
    case 'original':
      return <p class="diff">{c.text}</p>;
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
      <Fetched resource={history} failed={(e) => `Cannot show the edit history now. ${errorText(e)}`} loading="Loading the edit history…">
        {() => (
          <>
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
          </>
        )}
      </Fetched>
    </Dialog>
  );
}
