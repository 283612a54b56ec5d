/**
 * The inline editor of a message: the raw text in a textarea (one's own message), and for a user
 * who may move messages the topic and channel, with which messages move and the two notices once
 * either changes; Save / Cancel (Enter in the text saves, Escape cancels). The text has the
 * composer's typeahead (TypeaheadTextarea.tsx), for this message's conversation. When the raw text is
 * not on this device and the server cannot be reached, the engine's reason is shown in its place.
 * Files are attached as in the composer (the button, a paste, a drop: attachments.ts), queued at
 * once, and named by the edit, which links them after the text; files of an editor closed without
 * saving are discarded.
 */
import { createEffect, createSignal, on, onCleanup, onMount, Show } from 'solid-js';
import { MoveFieldsView } from '../shared/MoveFieldsView.js';
import { useChannels } from '../data/channels.js';
import { keyAction } from './compose-reducer.js';
import { canSave, topicOrChannelChanged, type EditState } from './edit-reducer.js';
import type { EditStore } from './edit-store.js';
import { TypeaheadTextarea } from './TypeaheadTextarea.js';
import type { Conversation } from './text-typeahead.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCompose } from '../data/compose.js';
import { useOutbox } from '../data/outbox.js';
import { createAttachments, fileDropHandlers } from './attachments.js';
import { AttachButton, AttachedFiles } from './Attachments.js';

export function MessageEditor(props: { state: EditState; store: EditStore; canChangeChannel: boolean; conversation: Conversation }) {
  const channels = useChannels();
  const outbox = useOutbox();
  const [fileError, setFileError] = createSignal<string | null>(null);
  const files = createAttachments({ bridge: useCompose().bridge, discard: (id) => outbox.discard(id), onError: setFileError });
  createEffect(on(files.list, (l) => props.store.setUploads(l.map((f) => f.uploadId))));
  // Closed while saving an edit of the text: the edit names the files. Cancelled, or the text
  // could not be read (a topic-only edit names none): they go.
  let named = false;
  createEffect(() => (named = props.state.phase === 'saving' && props.state.base !== null));
  onCleanup(() => {
    if (!named) for (const f of files.list()) files.remove(f);
  });
  let form: HTMLFormElement | undefined;
  onMount(() => form?.querySelector<HTMLElement>('textarea, input')?.focus());
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      props.store.cancel();
    } else if (keyAction(e) === 'submit') {
      e.preventDefault();
      props.store.save();
    }
  };
  return (
    <form
      ref={form}
      class="message-editor"
      aria-label="Edit message"
      onSubmit={(e) => {
        e.preventDefault();
        props.store.save();
      }}
    >
      <Show when={props.state.phase !== 'error'} fallback={<ErrorText message={`Cannot edit now. ${props.state.error ?? ''}`} />}>
        <Show when={props.state.content}>
          <Show when={props.state.rawError === null} fallback={<p class="editor-note" role="status">{`The text cannot be edited now. ${props.state.rawError ?? ''}`}</p>}>
            <TypeaheadTextarea
              class="editor-input"
              label="Message text"
              rows={3}
              value={props.state.phase === 'loading' ? 'Loading the message text…' : props.state.text}
              readOnly={props.state.phase !== 'ready'}
              conversation={props.conversation}
              onText={(text) => props.store.setText(text)}
              onKeyDown={onKeyDown}
              {...fileDropHandlers(files)}
            />
            <AttachedFiles attachments={files} />
            <AttachButton attachments={files} />
          </Show>
        </Show>
        <Show when={props.state.move}>
          {(m) => (
            <MoveFieldsView
              fields={m()}
              onChange={(patch) => props.store.setMove(patch)}
              channels={channels.state.channels}
              channel={props.canChangeChannel}
              topicLabel="Topic"
              channelLabel="Channel"
              options={topicOrChannelChanged(props.state)}
              disabled={props.state.phase !== 'ready'}
              onEscape={() => props.store.cancel()}
            />
          )}
        </Show>
      </Show>
      <ErrorText message={props.state.phase === 'ready' ? (props.state.error ?? fileError()) : null} />
      <div class="editor-actions">
        <Button type="submit" variant="primary" size="small" disabled={!canSave(props.state)}>
          {props.state.phase === 'saving' ? 'Saving…' : 'Save'}
        </Button>
        <Button variant="quiet" size="small" onClick={() => props.store.cancel()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
