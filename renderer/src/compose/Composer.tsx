/**
 * The composer under a topic: Enter sends, Shift+Enter starts a new line; Send is disabled only
 * while there is nothing to send. The text is cleared as soon as the engine has queued it (its
 * local echo then shows in the list with a "sending" marker); a refusal puts the text back.
 */
import { createSignal, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { canSubmit, keyAction } from './compose-reducer.js';
import { topicLabel } from '../narrow/format.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import './compose.css';

export function Composer(props: { channelId: number; topic: string; bridge?: Bridge }) {
  const [text, setText] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const bridge = () => props.bridge ?? defaultBridge;

  const send = () => {
    const content = text();
    if (!canSubmit(content)) return;
    setText('');
    setError(null);
    bridge()
      .invoke('sendMessage', { to: { type: 'channel', channel_id: props.channelId, topic: props.topic }, content })
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
        aria-label={`Message to ${topicLabel(props.topic)}`}
        placeholder={`Message ${topicLabel(props.topic)} (Enter sends, Shift+Enter for a new line)`}
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
