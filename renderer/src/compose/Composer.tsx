/**
 * The composer under a topic or a direct-message conversation: Enter sends, Shift+Enter starts a
 * new line; Send is disabled only while there is nothing to send. The text is cleared as soon as
 * the engine has queued it (its local echo then shows in the list with a "sending" marker); a
 * refusal puts the text back.
 */
import { createSignal, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { canSubmit, keyAction } from './compose-reducer.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import './compose.css';

/** Where a composer sends. */
export type ComposeTo = { type: 'channel'; channelId: number; topic: string } | { type: 'direct'; userIds: number[] };

/** `label` names the conversation ("lunch plans", "Hamlet, Iago") for the textarea's name. */
export function Composer(props: { to: ComposeTo; label: string; bridge?: Bridge }) {
  const [text, setText] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const bridge = () => props.bridge ?? defaultBridge;

  const send = () => {
    const content = text();
    if (!canSubmit(content)) return;
    setText('');
    setError(null);
    bridge()
      .invoke('sendMessage', { to: props.to.type === 'channel' ? { type: 'channel', channel_id: props.to.channelId, topic: props.to.topic } : { type: 'direct', user_ids: props.to.userIds }, content })
      .catch((e: unknown) => {
        // Nothing was queued: give the text back unless the user started another one meanwhile.
        if (text() === '') setText(content);
        setError(errorText(e));
      });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (keyAction(e) !== 'submit') return;
    e.preventDefault();
    send();
  };

  return (
    <form
      class="composer"
      aria-label="Compose"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        class="composer-input"
        aria-label={`Message to ${props.label}`}
        placeholder={`Message ${props.label} (Enter sends, Shift+Enter for a new line)`}
        rows={2}
        value={text()}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <Button type="submit" variant="primary" class="composer-send" disabled={!canSubmit(text())}>
        Send
      </Button>
      <Show when={error()}>
        <p class="error composer-error" role="alert">
          {error()}
        </p>
      </Show>
    </form>
  );
}
