import { Show } from 'solid-js';

/** The one display of a command's error: a sentence read out at once (role alert); nothing when null. */
export function ErrorText(props: { message: string | null | undefined; id?: string; class?: string }) {
  return (
    <Show when={props.message}>
      {(m) => (
        <p class={props.class ? `error ${props.class}` : 'error'} id={props.id} role="alert">
          {m()}
        </p>
      )}
    </Show>
  );
}
