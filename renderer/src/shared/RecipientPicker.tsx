/**
 * The direct-message recipient picker: the people picked as pills (each with a Remove button) and a
 * typeahead to add one (active users by name or email, those picked left out). Backspace in the
 * empty field removes the last one; Enter in the empty field with someone picked is "done".
 * Used by the composer's new direct message and by the scheduled message's Edit dialog.
 */
import { createSignal, For } from 'solid-js';
import { useUsers } from '../data/users.js';
import { Typeahead } from './Typeahead.js';
import { peopleSuggestions } from './typeahead.js';
import './shared.css';

export function RecipientPicker(props: {
  people: readonly number[];
  onChange(ids: number[]): void;
  /** Enter in the empty field with someone picked. */
  onDone?(): void;
  /** Keys the picker does not take (Escape, shortcuts of the form around it). */
  onOtherKey?(e: KeyboardEvent): void;
  ref?(el: HTMLInputElement): void;
  class?: string;
}) {
  const users = useUsers();
  const [query, setQuery] = createSignal('');
  let input: HTMLInputElement | undefined;
  const name = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  return (
    <div class={props.class ?? 'composer-to'} role="group" aria-label="Recipients">
      <ul class="people" aria-label="People picked">
        <For each={props.people}>
          {(id) => (
            <li class="person-pill">
              <span>{name(id)}</span>
              <button
                type="button"
                class="pill-remove"
                aria-label={`Remove ${name(id)}`}
                onClick={() => {
                  props.onChange(props.people.filter((p) => p !== id));
                  input?.focus();
                }}
              >
                ×
              </button>
            </li>
          )}
        </For>
      </ul>
      <Typeahead
        class="composer-people"
        label="Add a person"
        autoHighlight
        placeholder={props.people.length === 0 ? 'Type a name' : 'Add another'}
        value={query()}
        ref={(el) => {
          input = el;
          props.ref?.(el);
        }}
        suggestions={peopleSuggestions(users.state.users, query(), props.people).map((u) => ({ key: String(u.user_id), label: u.full_name, detail: u.email }))}
        onInput={setQuery}
        onPick={(s) => {
          props.onChange([...props.people, Number(s.key)]);
          setQuery('');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Backspace' && query() === '' && props.people.length > 0) {
            props.onChange(props.people.slice(0, -1));
          } else if (e.key === 'Enter' && query() === '' && props.people.length > 0 && props.onDone) {
            e.preventDefault();
            props.onDone();
          } else {
            props.onOtherKey?.(e);
          }
        }}
      />
    </div>
  );
}
