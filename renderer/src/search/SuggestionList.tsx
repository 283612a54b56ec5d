/** The search box's listbox of suggestions (an ARIA combobox's popup): a click picks without blurring the box. */
import { For, Show } from 'solid-js';
import type { Suggestion } from './suggestions.js';

export const LIST_ID = 'search-suggestions';
export const optionId = (i: number) => `search-suggestion-${i}`;

export function SuggestionList(props: { items: readonly Suggestion[]; active: number; hidden: boolean; onPick(s: Suggestion): void; onHover(i: number): void }) {
  return (
    <ul id={LIST_ID} class="search-suggestions" role="listbox" aria-label="Search suggestions" hidden={props.hidden}>
      <For each={props.items}>
        {(s, i) => (
          <li
            id={optionId(i())}
            role="option"
            class="search-suggestion"
            classList={{ active: props.active === i() }}
            aria-selected={props.active === i()}
            aria-label={s.term === '' ? s.label : `${s.label}, ${s.term}`}
            // Keep the focus in the box: a click picks without blurring it.
            onMouseDown={(e) => {
              e.preventDefault();
              props.onPick(s);
            }}
            onMouseMove={() => props.onHover(i())}
          >
            {/* In the name's order, words apart ("label term"; axe: label-content-name-mismatch); CSS draws the term first. */}
            <span class="search-label">{s.label}</span>
            <Show when={s.term !== ''}>
              {' '}
              <span class="search-term">{s.term}</span>
            </Show>
          </li>
        )}
      </For>
    </ul>
  );
}
