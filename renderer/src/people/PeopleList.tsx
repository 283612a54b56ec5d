/**
 * The user list (Zulip web's buddy list, buddy_list.ts / buddy_data.ts), as a section of the
 * sidebar so it is there in the narrow layout too: people with a presence dot (its words for screen
 * readers), active first, then idle, then offline, each by name, with their avatars when the user's
 * `user_list_style` says so ("With avatar and status"); muted people, bots and
 * deactivated users left out. Searchable by name; a person opens their card. The heading folds it.
 */
import { createSignal, For, Show } from 'solid-js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import { PersonAvatar } from '../shared/AvatarImage.js';
import { buddyList, PRESENCE_WORDS } from './people.js';
import { cardButtonName, openUserCard } from './UserCard.js';
import './people.css';

export function PeopleList() {
  const users = useUsers();
  const settings = useSettings();
  const [shown, setShown] = createSignal(true);
  const [filter, setFilter] = createSignal('');
  const rows = () => buddyList(users.state.users, (id) => users.presenceOf(id)?.presence, (id) => users.isMuted(id), filter());
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
            <For each={rows()}>
              {(r) => {
                const status = () => users.presenceOf(r.user.user_id)?.status_text ?? '';
                return (
                  <li class="person" data-user-id={r.user.user_id} data-presence={r.presence}>
                    <button type="button" class="row-button people-row" aria-label={cardButtonName(r.user.full_name)} aria-describedby={`presence-${r.user.user_id}`} onClick={(e) => openUserCard(r.user.user_id, e.currentTarget)}>
                      <Show when={settings.display().userListAvatars}>
                        <PersonAvatar class="people-avatar" userId={r.user.user_id} name={r.user.full_name} url={r.user.avatar_url} />
                      </Show>
                      <span class={`presence-dot presence-${r.presence}`} aria-hidden="true" />
                      <span class="row-name">{r.user.full_name}</span>
                    </button>
                    <Show when={status()}>
                      <span class="people-status">{status()}</span>
                    </Show>
                    <span class="visually-hidden" id={`presence-${r.user.user_id}`}>
                      {PRESENCE_WORDS[r.presence]}
                    </span>
                  </li>
                );
              }}
            </For>
          </ul>
        </Show>
      </Show>
    </section>
  );
}
