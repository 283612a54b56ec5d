/**
 * `#groups`: user groups, as Zulip web places them (`#groups/your`, `#groups/all`, a group's page
 * `#groups/<id>/<name>/...`). The list shows named groups by name (deactivated ones on request);
 * a group's page edits its name and description, members, subgroups, the six permission settings
 * (a system group, or specific users and groups) and deactivates or reactivates it.
 *
 * Every change but deactivation is queued (works offline) and shows at once with a "not saved yet"
 * marker; a change the server refused shows its words with Retry / Discard. Controls the user may
 * not use, by the server's rules (group-rules.ts), are disabled and say who may.
 */
import { createMemo, createSignal, For, Match, Show, Switch } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { EmptyState } from '../kit/EmptyState.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useOutbox } from '../data/outbox.js';
import { useUsers } from '../data/users.js';
import { useUserGroups } from '../data/groups.js';
import { byId } from './group-rules.js';
import { groupHref, groupRows, groupsPlace, listedGroups } from './groups-list.js';
import { GroupPageOf } from './GroupPage.js';
import { PendingBadge } from './PendingChanges.js';
import './groups.css';

export function GroupsView(props: { rest: readonly string[]; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const state = useUserGroups(bridge);
  const place = createMemo(() => groupsPlace(props.rest));
  return (
    <section class="narrow screen groups-view" aria-label="User groups">
      <ErrorText message={state.error !== null && !state.loaded ? `Could not load the user groups. ${state.error}` : null} />
      <Show when={state.loaded} fallback={<EmptyState title="Loading…" role="status" />}>
        <Switch>
          <Match when={place().kind === 'list' && place()}>{(p) => <GroupsList tab={(p() as { tab: 'your' | 'all' }).tab} state={state} />}</Match>
          <Match when={place().kind === 'group' && place()}>{(p) => <GroupPageOf id={(p() as { id: number }).id} state={state} bridge={bridge} />}</Match>
        </Switch>
      </Show>
    </section>
  );
}

export type GroupsState = ReturnType<typeof useUserGroups>;

function GroupsList(props: { tab: 'your' | 'all'; state: GroupsState }) {
  const users = useUsers();
  const outbox = useOutbox();
  const [showDeactivated, setShowDeactivated] = createSignal(false);
  const all = createMemo(() => byId(props.state.data.groups));
  const list = createMemo(() => listedGroups(props.state.data.groups, all(), props.tab, users.state.ownUserId, showDeactivated()));
  return (
    <>
      <header class="screen-header groups-header">
        <h1 class="screen-title groups-title">User groups</h1>
        <nav class="groups-tabs" aria-label="Which groups">
          <a href="#groups/your" aria-current={props.tab === 'your' ? 'page' : undefined}>
            Your groups
          </a>
          <a href="#groups/all" aria-current={props.tab === 'all' ? 'page' : undefined}>
            All groups
          </a>
        </nav>
        <label class="groups-deactivated-toggle secondary-text">
          <input type="checkbox" checked={showDeactivated()} onChange={(e) => setShowDeactivated(e.currentTarget.checked)} /> Show deactivated groups
        </label>
      </header>
      <Show
        when={list().length > 0}
        fallback={<EmptyState title={props.tab === 'your' ? 'You are not in any user group.' : 'No user groups.'}>{props.tab === 'your' ? <a href="#groups/all">See all groups</a> : null}</EmptyState>}
      >
        <ul class="screen-list groups-list" aria-label="User groups list">
          <For each={list()}>
            {(g) => {
              const rows = () => groupRows(outbox.state.rows, g.id);
              return (
                <li class="screen-card groups-item wrap-row" classList={{ deactivated: g.deactivated }}>
                  <a class="groups-name" href={groupHref(g)}>
                    {g.name}
                  </a>
                  <Show when={g.deactivated}>
                    <span class="badge">deactivated</span>
                  </Show>
                  <PendingBadge rows={rows()} />
                  <span class="groups-count secondary-text">{g.members.length === 1 ? '1 member' : `${g.members.length} members`}</span>
                  <Show when={g.description !== ''}>
                    <p class="groups-description">{g.description}</p>
                  </Show>
                </li>
              );
            }}
          </For>
        </ul>
      </Show>
    </>
  );
}
