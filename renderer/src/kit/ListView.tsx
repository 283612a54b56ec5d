/**
 * A list that says so while it loads and when it is empty: `loading` until `loaded`, then `empty`
 * for no items, else a `<ul>` with one entry (an `<li>` from `children`) per item.
 */
import { For, Show, type JSX } from 'solid-js';

export function ListView<T>(props: {
  items: readonly T[];
  /** False while the first answer is awaited (default true). */
  loaded?: boolean;
  loading?: JSX.Element;
  empty?: JSX.Element;
  class: string;
  label: string;
  children: (item: T) => JSX.Element;
}) {
  return (
    <Show when={props.loaded ?? true} fallback={props.loading}>
      <Show when={props.items.length > 0} fallback={props.empty}>
        <ul class={props.class} aria-label={props.label}>
          <For each={props.items}>{(item) => props.children(item)}</For>
        </ul>
      </Show>
    </Show>
  );
}
