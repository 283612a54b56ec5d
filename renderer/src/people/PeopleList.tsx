/**
 * The user list (Zulip web's buddy list, buddy_list.ts / buddy_data.ts), as a section of the
 * sidebar so it is there in the narrow layout too: people with a presence dot (its words for screen
 * readers), active first, then idle, then offline, each by name, with their avatars when the user's
 * `user_list_style` says so ("With avatar and status"); muted people, bots and
 * deactivated users left out. Searchable by name; a person opens their card. The heading folds it.
 */
import { createMemo, createSignal, For, Show } from 'solid-js';
import { createRenderMore } from '../kit/render-more.js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import { PersonAvatar } from '../shared/AvatarImage.js';
import { buddyList, PRESENCE_WORDS } from './people.js';
import { cardButtonName, openUserCard } from './UserCard.js';
import './people.css';

/** People rendered at first, and added each time the list's end nears the view. */
const PEOPLE_PAGE = 100;

export function PeopleList() {
  const users = useUsers();
  const settings = useSettings();
  const [shown, setShown] = createSignal(true);
  const [filter, setFilter] = createSignal('');
  const rows = createMemo(() => buddyList(users.state.users, (id) => users.presenceOf(id)?.presence, (id) => users.isMuted(id), filter()));
  // Rows keyed by user id (a number: a row stays while its person moves in the order, as
  // presence changes) and rendered a page at a time as the list is scrolled.
  const rowById = createMemo(() => new Map(rows().map((r) => [r.user.user_id, r])));
  const more = createRenderMore(PEOPLE_PAGE, filter);
  const shownIds = createMemo(() => rows().slice(0, more.count()).map((r) => r.user.user_id));
  return (
    <section class="people" aria-labelledby="sidebar-people-title">
      <h2 class="sidebar-title" id="sidebar-people-title">
        <button type="button" class="people-toggle" aria-expanded={shown()} onClick={() => setShown(!shown())}>
          People
        </button>
      </h2>
      <Show when={shown()}>
        <input class="people-search" type="search" placeholder="Search people" aria-label="Search people" value={filter()} onInput={(e) => setFilter(e.currentTarget.value)} />
        <Show when={rows().length > 0} fallback={<p class="hint">{users.state.users.length === 0 ? 'Loading…' : 'Nobody matches.'}</p>}>
          <ul class="people-list" aria-label="User list">
            <For each={shownIds()}>
              {(id) => (
                <Show when={rowById().get(id)}>
                  {(r) => {
                    const status = () => users.presenceOf(id)?.status_text ?? '';
                    return (
                      <li class="person" data-user-id={id} data-presence={r().presence}>
                        <button type="button" class="row-button people-row" aria-label={cardButtonName(r().user.full_name)} aria-describedby={`presence-${id}`} onClick={(e) => openUserCard(id, e.currentTarget)}>
                          <Show when={settings.display().userListAvatars}>
                            <PersonAvatar class="people-avatar" userId={id} name={r().user.full_name} url={r().user.avatar_url} />
                          </Show>
                          <span class={`presence-dot presence-${r().presence}`} aria-hidden="true" />
                          <span class="row-name">{r().user.full_name}</span>
                        </button>
                        <Show when={status()}>
                          <span class="people-status">{status()}</span>
                        </Show>
                        <span class="visually-hidden" id={`presence-${id}`}>
                          {PRESENCE_WORDS[r().presence]}
                        </span>
                      </li>
                    );
                  }}
                </Show>
              )}
            </For>
            <Show when={rows().length > more.count()}>
              <li class="people-more" ref={more.sentinel} aria-hidden="true" />
            </Show>
          </ul>
        </Show>
      </Show>
    </section>
  );
}
