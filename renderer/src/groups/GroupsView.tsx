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
import { createEffect, createMemo, createSignal, For, Match, on, Show, Switch } from 'solid-js';
import type { UserGroupPermission } from '../../../sync/protocol/commands.js';
import { USER_GROUP_PERMISSIONS } from '../../../sync/protocol/commands.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useToasts } from '../kit/toasts.js';
import { describeRow } from '../outbox/panel-reducer.js';
import { useOutbox } from '../outbox/store.js';
import { useUsers } from '../users/store.js';
import { abilities, byId, subgroupCandidates, type Abilities, type Allowed, type Group, type GroupsById, type Namer } from './group-rules.js';
import { groupHref, groupRows, groupsPlace, isFailed, listedGroups, objectionsInWords, refusalHint } from './groups-list.js';
import { SettingEditor } from './SettingEditor.js';
import { useUserGroups } from './store.js';
import './groups.css';

export function GroupsView(props: { rest: readonly string[]; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const state = useUserGroups(bridge);
  const place = createMemo(() => groupsPlace(props.rest));
  return (
    <section class="narrow groups-view" aria-label="User groups">
      <Show when={state.error !== null && !state.loaded}>
        <p class="error" role="alert">
          Could not load the user groups. {state.error}
        </p>
      </Show>
      <Show when={state.loaded} fallback={<EmptyState title="Loading…" role="status" />}>
        <Switch>
          <Match when={place().kind === 'list' && place()}>{(p) => <GroupsList tab={(p() as { tab: 'your' | 'all' }).tab} state={state} />}</Match>
          <Match when={place().kind === 'group' && place()}>{(p) => <GroupPageOf id={(p() as { id: number }).id} state={state} bridge={bridge} />}</Match>
        </Switch>
      </Show>
    </section>
  );
}

type State = ReturnType<typeof useUserGroups>;

function GroupsList(props: { tab: 'your' | 'all'; state: State }) {
  const users = useUsers();
  const outbox = useOutbox();
  const [showDeactivated, setShowDeactivated] = createSignal(false);
  const all = createMemo(() => byId(props.state.data.groups));
  const list = createMemo(() => listedGroups(props.state.data.groups, all(), props.tab, users.state.ownUserId, showDeactivated()));
  return (
    <>
      <header class="groups-header">
        <h1 class="groups-title">User groups</h1>
        <nav class="groups-tabs" aria-label="Which groups">
          <a href="#groups/your" aria-current={props.tab === 'your' ? 'page' : undefined}>
            Your groups
          </a>
          <a href="#groups/all" aria-current={props.tab === 'all' ? 'page' : undefined}>
            All groups
          </a>
        </nav>
        <label class="groups-deactivated-toggle">
          <input type="checkbox" checked={showDeactivated()} onChange={(e) => setShowDeactivated(e.currentTarget.checked)} /> Show deactivated groups
        </label>
      </header>
      <Show
        when={list().length > 0}
        fallback={<EmptyState title={props.tab === 'your' ? 'You are not in any user group.' : 'No user groups.'}>{props.tab === 'your' ? <a href="#groups/all">See all groups</a> : null}</EmptyState>}
      >
        <ul class="groups-list" aria-label="User groups list">
          <For each={list()}>
            {(g) => {
              const rows = () => groupRows(outbox.state.rows, g.id);
              return (
                <li class="groups-item" classList={{ deactivated: g.deactivated }}>
                  <a class="groups-name" href={groupHref(g)}>
                    {g.name}
                  </a>
                  <Show when={g.deactivated}>
                    <span class="badge">deactivated</span>
                  </Show>
                  <PendingBadge rows={rows()} />
                  <span class="groups-count">{g.members.length === 1 ? '1 member' : `${g.members.length} members`}</span>
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

function PendingBadge(props: { rows: ReturnType<typeof groupRows> }) {
  return (
    <Show when={props.rows.length > 0}>
      <Show when={props.rows.some(isFailed)} fallback={<span class="badge badge-pending">not saved yet</span>}>
        <span class="badge badge-failed">change failed</span>
      </Show>
    </Show>
  );
}

function GroupPageOf(props: { id: number; state: State; bridge: Bridge }) {
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

/** The reason, for the controls `a` disables (null when allowed). */
const reason = (a: Allowed) => (a.ok ? null : a.why);

function GroupPage(props: { group: Group; state: State; bridge: Bridge }) {
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
      <header class="group-heading">
        <h1 id={`group-${props.group.id}-title`} class="groups-title">
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
      <Show when={rows().length > 0}>
        <ul class="group-pending" aria-label="Changes not saved yet">
          <For each={rows()}>
            {(r) => {
              const what = () => describeRow(r).what;
              return (
                <li classList={{ failed: isFailed(r) }}>
                  <span>{what()}</span>{' '}
                  <Show when={isFailed(r)} fallback={<span class="badge badge-pending">not saved yet</span>}>
                    <span class="badge badge-failed">failed</span>
                    <p class="error" role="alert">
                      {`The server refused: ${r.last_error?.message ?? 'no reason given'}`}
                    </p>
                    <Show when={refusalHint(r)}>{(hint) => <p class="hint">{hint()}</p>}</Show>
                    <div class="group-pending-actions">
                      <Button size="small" aria-label={`Retry: ${what()}`} onClick={() => void act('retry', () => outbox.retry(r.outbox_id))}>
                        Retry
                      </Button>
                      <Button size="small" variant="quiet" aria-label={`Discard: ${what()}`} onClick={() => void act('discard', () => outbox.discard(r.outbox_id))}>
                        Discard
                      </Button>
                    </div>
                  </Show>
                </li>
              );
            }}
          </For>
        </ul>
      </Show>
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

      <section class="group-section" aria-labelledby={`group-${props.group.id}-perms`}>
        <h2 id={`group-${props.group.id}-perms`}>Permissions</h2>
        <For each={USER_GROUP_PERMISSIONS as readonly UserGroupPermission[]}>
          {(s) => <SettingEditor group={props.group} setting={s} groups={props.state.data.groups} all={all()} disabledWhy={reason(may().manage)} bridge={props.bridge} />}
        </For>
      </section>

      <Show when={!props.group.is_system_group}>
        <section class="group-section" aria-labelledby={`group-${props.group.id}-state`}>
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
              onClick={() => void act('reactivate the group', async () => (await props.bridge.invoke('reactivateUserGroup', { user_group_id: props.group.id }), toasts.show(`“${props.group.name}” reactivated on this device; it goes to the server when it can.`)))}
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

function GeneralSection(props: { group: Group; may: Abilities; describedBy: string; bridge: Bridge }) {
  const toasts = useToasts();
  const [name, setName] = createSignal(props.group.name);
  const [description, setDescription] = createSignal(props.group.description);
  const [error, setError] = createSignal<string | null>(null);
  // A change from elsewhere (or a queued one applied) shows in an untouched field.
  createEffect(
    on(
      () => [props.group.name, props.group.description] as const,
      ([n, d], prev) => {
        if (prev && name().trim() === prev[0]) setName(n);
        if (prev && description() === prev[1]) setDescription(d);
      },
    ),
  );
  const disabled = () => !props.may.manage.ok;
  const changed = () => name().trim() !== props.group.name || description() !== props.group.description;
  const save = (e: Event) => {
    e.preventDefault();
    const n = name().trim();
    if (n === '') return setError('A group needs a name.');
    const req: { user_group_id: number; name?: string; description?: string } = { user_group_id: props.group.id };
    if (n !== props.group.name) req.name = n;
    if (description() !== props.group.description) req.description = description();
    setError(null);
    props.bridge.invoke('updateUserGroup', req).then(
      () => toasts.show('Saved on this device; it goes to the server when it can.'),
      (err: unknown) => setError(errorText(err)),
    );
  };
  return (
    <section class="group-section" aria-labelledby={`group-${props.group.id}-general`}>
      <h2 id={`group-${props.group.id}-general`}>General</h2>
      <form class="group-general" onSubmit={save}>
        <label class="group-field">
          <span class="group-label">Group name</span>
          <input value={name()} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} disabled={disabled()} aria-describedby={disabled() ? props.describedBy : undefined} />
        </label>
        <label class="group-field">
          <span class="group-label">Group description</span>
          <textarea rows={2} value={description()} onInput={(e) => setDescription(e.currentTarget.value)} disabled={disabled()} aria-describedby={disabled() ? props.describedBy : undefined} />
        </label>
        <Show when={error()}>
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
        <div>
          <Button type="submit" variant="primary" disabled={disabled() || !changed()} aria-describedby={disabled() ? props.describedBy : undefined}>
            Save name and description
          </Button>
        </div>
      </form>
    </section>
  );
}

function MembersSection(props: { group: Group; may: Abilities; bridge: Bridge; act: (what: string, f: () => Promise<unknown>) => Promise<void> }) {
  const users = useUsers();
  const [pick, setPick] = createSignal('');
  const self = () => users.state.ownUserId;
  const nameOf = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const candidates = createMemo(() =>
    users.state.users.filter((u) => u.is_active && !u.is_bot && !props.group.members.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name)),
  );
  const members = createMemo(() => [...props.group.members].sort((a, b) => nameOf(a).localeCompare(nameOf(b))));
  const change = (add: number[], del: number[]) => props.act('change the members', () => props.bridge.invoke('updateUserGroupMembers', { user_group_id: props.group.id, add, delete: del }));
  const isSelf = (id: number) => id === self();
  const canRemove = (id: number) => (isSelf(id) ? props.may.leave : props.may.removeMembers);
  const addReason = `group-${props.group.id}-add-reason`;
  return (
    <section class="group-section" aria-labelledby={`group-${props.group.id}-members`}>
      <h2 id={`group-${props.group.id}-members`}>Members</h2>
      <Show when={!props.group.is_system_group} fallback={<p class="hint">Members of a system group are the users with its role.</p>}>
        <Show when={members().length > 0} fallback={<p class="hint">No direct members.</p>}>
          <ul class="group-chips" aria-label="Members">
            <For each={members()}>
              {(id) => (
                <li class="group-chip">
                  <span>{nameOf(id)}</span>
                  <Button
                    size="small"
                    variant="quiet"
                    aria-label={isSelf(id) ? `Leave ${props.group.name}` : `Remove ${nameOf(id)} from ${props.group.name}`}
                    title={canRemove(id).ok ? undefined : (canRemove(id) as { why: string }).why}
                    disabled={!canRemove(id).ok}
                    onClick={() => void change([], [id])}
                  >
                    {isSelf(id) ? 'Leave' : 'Remove'}
                  </Button>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={self() !== null && !props.group.members.includes(self() ?? -1) && props.may.join.ok}>
          <div class="group-add">
            <Button size="small" variant="primary" onClick={() => void change([self() ?? 0], [])}>
              {`Join ${props.group.name}`}
            </Button>
          </div>
        </Show>
        <div class="group-add">
          <select aria-label={`Add a member to ${props.group.name}`} value={pick()} onChange={(e) => setPick(e.currentTarget.value)} disabled={!props.may.addMembers.ok}>
            <option value="">Choose a person…</option>
            <For each={candidates()}>{(u) => <option value={String(u.user_id)}>{u.full_name}</option>}</For>
          </select>
          <Button
            size="small"
            disabled={pick() === '' || !props.may.addMembers.ok}
            aria-describedby={props.may.addMembers.ok ? undefined : addReason}
            onClick={() => {
              const id = Number(pick());
              setPick('');
              void change([id], []);
            }}
          >
            Add member
          </Button>
        </div>
        <Show when={reason(props.may.addMembers)}>
          {(why) => (
            <p class="hint" id={addReason}>
              {why()}
            </p>
          )}
        </Show>
      </Show>
    </section>
  );
}

function SubgroupsSection(props: { group: Group; all: GroupsById; may: Abilities; bridge: Bridge; act: (what: string, f: () => Promise<unknown>) => Promise<void> }) {
  const [pick, setPick] = createSignal('');
  const nameOf = (id: number) => props.all.get(id)?.name ?? `group ${id}`;
  const candidates = createMemo(() => subgroupCandidates(props.group, props.all).sort((a, b) => a.name.localeCompare(b.name)));
  const change = (add: number[], del: number[]) => props.act('change the subgroups', () => props.bridge.invoke('updateUserGroupSubgroups', { user_group_id: props.group.id, add, delete: del }));
  const addReason = `group-${props.group.id}-sub-reason`;
  return (
    <Show when={!props.group.is_system_group}>
      <section class="group-section" aria-labelledby={`group-${props.group.id}-subgroups`}>
        <h2 id={`group-${props.group.id}-subgroups`}>Subgroups</h2>
        <p class="hint">Members of a subgroup are members of this group too.</p>
        <Show when={props.group.direct_subgroup_ids.length > 0} fallback={<p class="hint">No subgroups.</p>}>
          <ul class="group-chips" aria-label="Subgroups">
            <For each={props.group.direct_subgroup_ids}>
              {(id) => (
                <li class="group-chip">
                  <a href={groupHref({ id, name: nameOf(id) })}>{nameOf(id)}</a>
                  <Button
                    size="small"
                    variant="quiet"
                    aria-label={`Remove the subgroup ${nameOf(id)} from ${props.group.name}`}
                    title={reason(props.may.removeSubgroups) ?? undefined}
                    disabled={!props.may.removeSubgroups.ok}
                    onClick={() => void change([], [id])}
                  >
                    Remove
                  </Button>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <div class="group-add">
          <select aria-label={`Add a subgroup to ${props.group.name}`} value={pick()} onChange={(e) => setPick(e.currentTarget.value)} disabled={!props.may.addSubgroups.ok}>
            <option value="">Choose a group…</option>
            <For each={candidates()}>{(g) => <option value={String(g.id)}>{g.name}</option>}</For>
          </select>
          <Button
            size="small"
            disabled={pick() === '' || !props.may.addSubgroups.ok}
            aria-describedby={props.may.addSubgroups.ok ? undefined : addReason}
            onClick={() => {
              const id = Number(pick());
              setPick('');
              void change([id], []);
            }}
          >
            Add subgroup
          </Button>
        </div>
        <Show when={reason(props.may.addSubgroups)}>
          {(why) => (
            <p class="hint" id={addReason}>
              {why()}
            </p>
          )}
        </Show>
      </section>
    </Show>
  );
}

function DeactivateDialog(props: { group: Group; all: GroupsById; bridge: Bridge; onClose(): void }) {
  const toasts = useToasts();
  const [error, setError] = createSignal<string | null>(null);
  const [objections, setObjections] = createSignal<string[]>([]);
  const [busy, setBusy] = createSignal(false);
  const go = () => {
    setBusy(true);
    props.bridge.invoke('deactivateUserGroup', { user_group_id: props.group.id }).then(
      () => {
        toasts.show(`“${props.group.name}” deactivated.`);
        props.onClose();
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorText(e));
        setObjections(objectionsInWords(typeof e === 'object' && e !== null ? Reflect.get(e, 'details') : undefined, (id) => props.all.get(id)?.name ?? `group ${id}`));
      },
    );
  };
  return (
    <Dialog title={`Deactivate ${props.group.name}`} class="group-deactivate-dialog" onClose={props.onClose}>
      <p>{`Deactivate “${props.group.name}”? Nobody can mention it or use it in permissions until it is reactivated.`}</p>
      <Show when={error()}>
        <div class="error" role="alert">
          <p>{error()}</p>
          <Show when={objections().length > 0}>
            <ul>
              <For each={objections()}>{(o) => <li>{o}</li>}</For>
            </ul>
          </Show>
        </div>
      </Show>
      <DialogActions label="Deactivate" onAction={go} danger disabled={busy()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
