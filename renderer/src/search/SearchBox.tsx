/**
 * Search: a box in the top bar with Zulip's operators and a typeahead (suggestions.ts): an ARIA
 * combobox whose listbox offers operators, their values, and the channels, topics and people the
 * word being typed matches. Up / Down move through the suggestions, Enter or a click picks one
 * (completing the query; the literal "Search for …" searches), Tab picks the highlighted one or
 * the first completion, Escape closes the list. Enter with nothing highlighted searches: the
 * query's URL (`#narrow/channel/ID-name/topic/T`, `#narrow/search/TEXT`, any combination), as
 * Zulip web writes it. On a search view the box shows its query, and only there.
 */
import { createEffect, createMemo, createSignal, on } from 'solid-js';
import { useNarrow } from '../data/narrow.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { hashOfQuery, queryOfHashTerms, type QueryNames } from './query.js';
import { suggest, type Suggestion } from './suggestions.js';
import { searchKey } from './search-keys.js';
import { menuIndex } from '../kit/menu-keys.js';
import { LIST_ID, optionId, SuggestionList } from './SuggestionList.js';
import './search.css';

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

  // The box shows the query of the search the user is in (once per search: typing is never
  // overwritten by a list update), a search that could not be made included; any other place
  // (a channel, a topic, the inbox...) empties it, so an old query never sits over another view.
  const viewQuery = createMemo(() => {
    const r = router.route();
    const t = narrow.state.view?.target;
    if (r.kind !== 'narrow' || (t !== undefined && t.kind !== 'search' && t.kind !== 'filter')) return '';
    return queryOfHashTerms(
      r.terms.filter((x) => x.operator !== 'near' && x.operator !== 'with'),
      names(),
    );
  });
  createEffect(on(viewQuery, (q) => setText(q)));

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
    const action = searchKey(e.key, e.shiftKey, { open: open(), active: active(), items: items() });
    if (action === null) return;
    e.preventDefault();
    if (action.kind === 'move') {
      if (!open()) setOpen(true);
      const next = menuIndex(e.key, active(), items().length);
      if (next !== null) setActive(next);
    } else if (action.kind === 'pick') pick(action.suggestion);
    else close();
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
      <SuggestionList items={items()} active={active()} hidden={!expanded()} onPick={pick} onHover={setActive} />
    </form>
  );
}
