/** A group's page (`#groups/<id>/<name>`): its state, pending changes, and the sections that edit it. */
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { UserGroupPermission } from '../../../sync/protocol/commands.js';
import { USER_GROUP_PERMISSIONS } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useToasts } from '../kit/toasts.js';
import { useOutbox } from '../data/outbox.js';
import { useUsers } from '../data/users.js';
import { abilities, byId, reason, type Abilities, type Group, type Namer } from './group-rules.js';
import { groupRows } from './groups-list.js';
import { SettingEditor } from './SettingEditor.js';
import { GeneralSection } from './GeneralSection.js';
import { MembersSection, SubgroupsSection } from './MembershipSections.js';
import { DeactivateDialog } from './DeactivateDialog.js';
import { PendingBadge, PendingChanges } from './PendingChanges.js';
import type { GroupsState } from './GroupsView.js';

export function GroupPageOf(props: { id: number; state: GroupsState; bridge: Bridge }) {
  const group = createMemo(() => props.state.data.groups.find((g) => g.id === props.id));
  return (
    <Show
      when={group()}
      fallback={
        <EmptyState title="No such user group here.">
          <a href="#groups/all">See all groups</a>
        </EmptyState>
      }
    >
      {(g) => <GroupPage group={g()} state={props.state} bridge={props.bridge} />}
    </Show>
  );
}

function GroupPage(props: { group: Group; state: GroupsState; bridge: Bridge }) {
  const users = useUsers();
  const outbox = useOutbox();
  const toasts = useToasts();
  const all = createMemo(() => byId(props.state.data.groups));
  const namer: Namer = { user: (id) => users.byId().get(id)?.full_name };
  const may = createMemo<Abilities>(() => abilities(props.group, { userId: users.state.ownUserId, role: users.state.ownRole }, props.state.data.can_manage_all_groups, all(), namer));
  const rows = createMemo(() => groupRows(outbox.state.rows, props.group.id));
  const act = (what: string, f: () => Promise<unknown>) =>
    f().then(
      () => undefined,
      (e: unknown) => void toasts.show(`Could not ${what}. ${errorText(e)}`, 'error'),
    );
  const [deactivating, setDeactivating] = createSignal(false);
  const manageReasonId = `group-${props.group.id}-manage-reason`;

  return (
    <article class="group-page" aria-labelledby={`group-${props.group.id}-title`}>
      <a class="group-back" href="#groups/all">
        All groups
      </a>
      <header class="screen-header group-heading">
        <h1 id={`group-${props.group.id}-title`} class="screen-title groups-title">
          {props.group.name}
        </h1>
        <Show when={props.group.deactivated}>
          <span class="badge">deactivated</span>
        </Show>
        <Show when={props.group.is_system_group}>
          <span class="badge">system group</span>
        </Show>
        <PendingBadge rows={rows()} />
      </header>
      <PendingChanges rows={rows()} act={act} />
      <Show when={reason(may().manage)}>
        {(why) => (
          <p class="hint group-reason" id={manageReasonId}>
            {why()}
          </p>
        )}
      </Show>

      <GeneralSection group={props.group} may={may()} describedBy={manageReasonId} bridge={props.bridge} />
      <MembersSection group={props.group} may={may()} bridge={props.bridge} act={act} />
      <SubgroupsSection group={props.group} all={all()} may={may()} bridge={props.bridge} act={act} />

      <section class="screen-card group-section" aria-labelledby={`group-${props.group.id}-perms`}>
        <h2 id={`group-${props.group.id}-perms`}>Permissions</h2>
        <For each={USER_GROUP_PERMISSIONS as readonly UserGroupPermission[]}>
          {(s) => <SettingEditor group={props.group} setting={s} groups={props.state.data.groups} all={all()} disabledWhy={reason(may().manage)} bridge={props.bridge} />}
        </For>
      </section>

      <Show when={!props.group.is_system_group}>
        <section class="screen-card group-section" aria-labelledby={`group-${props.group.id}-state`}>
          <h2 id={`group-${props.group.id}-state`}>{props.group.deactivated ? 'Deactivated' : 'Deactivate'}</h2>
          <Show
            when={props.group.deactivated}
            fallback={
              <>
                <p class="hint">A deactivated group cannot be mentioned or used in permissions; it can be reactivated later. This needs a connection: the server checks that nothing uses the group.</p>
                <Button class="danger" disabled={!may().manage.ok} aria-describedby={may().manage.ok ? undefined : manageReasonId} onClick={() => setDeactivating(true)}>
                  Deactivate group
                </Button>
              </>
            }
          >
            <p class="hint">This group is deactivated: it cannot be mentioned or used in permissions until it is reactivated.</p>
            <Button
              variant="primary"
              disabled={!may().manage.ok}
              aria-describedby={may().manage.ok ? undefined : manageReasonId}
              onClick={() => void act('reactivate the group', async () => (await props.bridge.invoke('updateUserGroupReactivate', { user_group_id: props.group.id }), toasts.show(`“${props.group.name}” reactivated on this device; it goes to the server when it can.`)))}
            >
              Reactivate group
            </Button>
          </Show>
        </section>
      </Show>
      <Show when={deactivating()}>
        <DeactivateDialog group={props.group} all={all()} bridge={props.bridge} onClose={() => setDeactivating(false)} />
      </Show>
    </article>
  );
}
