import { Show, type JSX } from 'solid-js';

/**
 * The one display of a command's error: a sentence read out at once (role alert), with what else
 * explains it (`children`, e.g. the server's objections) inside the same alert; nothing when null.
 * `inline`: a span, in a row of controls.
 */
export function ErrorText(props: { message: string | null | undefined; id?: string; class?: string; inline?: boolean; children?: JSX.Element }) {
  const cls = () => (props.class ? `error ${props.class}` : 'error');
  return (
    <Show when={props.message}>
      {(m) => (
        <Show
          when={props.children}
          fallback={
            <Show
              when={props.inline}
              fallback={
                <p class={cls()} id={props.id} role="alert">
                  {m()}
                </p>
              }
            >
              <span class={cls()} id={props.id} role="alert">
                {m()}
              </span>
            </Show>
          }
        >
          <div class={cls()} id={props.id} role="alert">
            <p>{m()}</p>
            {props.children}
          </div>
        </Show>
      )}
    </Show>
  );
}
