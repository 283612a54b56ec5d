/**
 * Search: a box in the top bar with Zulip's operators and a typeahead (suggestions.ts): an ARIA
 * combobox whose listbox offers operators, their values, and the channels, topics and people the
 * word being typed matches. Up / Down move through the suggestions, Enter or a click picks one
 * (completing the query; the literal "Search for …" searches), Tab picks the highlighted one or
 * the first completion, Escape closes the list. Enter with nothing highlighted searches: the
 * query's URL (`#narrow/channel/ID-name/topic/T`, `#narrow/search/TEXT`, any combination), as
 * Zulip web writes it. On a search view the box shows its query.
 */
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
import { menuIndex } from '../kit/menu-keys.js';
import { useNarrow } from '../data/narrow.js';
import { termsOfTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { hashOfQuery, queryOfHashTerms, type QueryNames } from './query.js';
import { suggest, type Suggestion } from './suggestions.js';
import './search.css';

const LIST_ID = 'search-suggestions';
const optionId = (i: number) => `search-suggestion-${i}`;

export function SearchBox() {
  const router = useRouter();
  const narrow = useNarrow();
  const channels = useChannels();
  const users = useUsers();
  let input: HTMLInputElement | undefined;
  const [text, setText] = createSignal('');
  const [open, setOpen] = createSignal(false);
  const [active, setActive] = createSignal(-1);
  const names = (): QueryNames => ({ channels: channels.state.channels, users: users.state.users });
  const items = createMemo<Suggestion[]>(() => (open() ? suggest(text(), { channels: channels.state.channels, users: users.state.users }) : []));
  const expanded = () => items().length > 0;

  // A search view's query in the box (once per view: typing is never overwritten by a list update).
  createEffect(
    on(
      () => {
        const t = narrow.state.view?.target;
        return t && (t.kind === 'search' || t.kind === 'filter') ? JSON.stringify(termsOfTarget(t)) : null;
      },
      (key) => {
        const t = narrow.state.view?.target;
        if (key === null || !t) return;
        setText(t.kind === 'search' ? t.query : queryOfHashTerms(termsOfTarget(t).filter((x) => x.operator !== 'near'), names()));
      },
    ),
  );

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const search = (query: string) => {
    const hash = hashOfQuery(query, names());
    if (hash === null) return;
    close();
    input?.blur();
    router.navigate(hash);
  };

  const pick = (s: Suggestion) => {
    if (s.kind === 'search') return search(s.query);
    setText(s.query);
    setActive(-1);
    setOpen(true);
    if (input) {
      input.value = s.query;
      input.focus();
      input.setSelectionRange(s.query.length, s.query.length);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const list = items();
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!open()) setOpen(true);
        const next = menuIndex(e.key, active(), items().length);
        if (next !== null) setActive(next);
        e.preventDefault();
        return;
      }
      case 'Enter': {
        const s = list[active()];
        if (open() && s) {
          e.preventDefault();
          pick(s);
        }
        return;
      }
      case 'Tab': {
        if (e.shiftKey || !open()) return;
        const s = list[active()] ?? list.find((x) => x.kind !== 'search');
        if (s && s.kind !== 'search') {
          e.preventDefault();
          pick(s);
        }
        return;
      }
      case 'Escape':
        if (expanded()) {
          e.preventDefault();
          close();
        }
        return;
    }
  };

  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search(text());
      }}
    >
      <input
        ref={input}
        class="search-input"
        type="search"
        role="combobox"
        aria-label="Search messages"
        aria-autocomplete="list"
        aria-expanded={expanded()}
        aria-controls={LIST_ID}
        aria-activedescendant={active() >= 0 && active() < items().length ? optionId(active()) : undefined}
        placeholder="Search messages"
        autocomplete="off"
        spellcheck={false}
        value={text()}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <ul id={LIST_ID} class="search-suggestions" role="listbox" aria-label="Search suggestions" hidden={!expanded()}>
        <For each={items()}>
          {(s, i) => (
            <li
              id={optionId(i())}
              role="option"
              class="search-suggestion"
              classList={{ active: active() === i() }}
              aria-selected={active() === i()}
              aria-label={s.term === '' ? s.label : `${s.label}, ${s.term}`}
              // Keep the focus in the box: a click picks without blurring it.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
              onMouseMove={() => setActive(i())}
            >
              <Show when={s.term !== ''}>
                <span class="search-term">{s.term}</span>
              </Show>
              <span class="search-label">{s.label}</span>
            </li>
          )}
        </For>
      </ul>
    </form>
  );
}
