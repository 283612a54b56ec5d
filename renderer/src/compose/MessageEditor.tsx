/** The inline editor of one's own message: the raw text in a textarea, Save / Cancel (Enter saves, Escape cancels). */
import { onMount, Show } from 'solid-js';
import { canSave, keyAction, type EditState } from './compose-reducer.js';
import type { EditStore } from './edit-store.js';
import { Button } from '../kit/Button.js';

export function MessageEditor(props: { state: EditState; store: EditStore }) {
  let input: HTMLTextAreaElement | undefined;
  onMount(() => input?.focus());
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
      class="message-editor"
      aria-label="Edit message"
      onSubmit={(e) => {
        e.preventDefault();
        props.store.save();
      }}
    >
      <Show when={props.state.phase !== 'error'} fallback={<p class="error" role="alert">{`Cannot edit now. ${props.state.error ?? ''}`}</p>}>
        <textarea
          ref={input}
          class="editor-input"
          aria-label="Message text"
          rows={3}
          value={props.state.phase === 'loading' ? 'Loading the message text…' : props.state.text}
          readOnly={props.state.phase !== 'ready'}
          onInput={(e) => props.store.setText(e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
      </Show>
      <Show when={props.state.phase === 'ready' && props.state.error}>
        <p class="error" role="alert">
          {props.state.error}
        </p>
      </Show>
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
