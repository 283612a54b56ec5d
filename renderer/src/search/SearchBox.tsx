/**
 * Search: a box in the top bar; Enter opens `#narrow/search/TEXT` (the engine searches the local
 * store, and the server when online). On a search view the box shows its query.
 */
import { createEffect, createSignal } from 'solid-js';
import { useNarrow } from '../narrow/store.js';
import { hashOfTarget } from '../narrow/target.js';
import { useRouter } from '../router/router.js';
import './search.css';

export function SearchBox() {
  const router = useRouter();
  const narrow = useNarrow();
  const [text, setText] = createSignal('');
  createEffect(() => {
    const t = narrow.state.view?.target;
    if (t?.kind === 'search') setText(t.query);
  });
  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const query = text().trim();
        if (query !== '') router.navigate(hashOfTarget({ kind: 'search', query }));
      }}
    >
      <input class="search-input" type="search" aria-label="Search messages" placeholder="Search messages" value={text()} onInput={(e) => setText(e.currentTarget.value)} />
    </form>
  );
}
