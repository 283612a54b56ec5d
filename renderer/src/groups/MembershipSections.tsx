/** A group's members and subgroups: chips with Remove (or Leave), Join, and a picker to add one. */
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { useUsers } from '../data/users.js';
import { reason, subgroupCandidates, type Abilities, type Allowed, type Group, type GroupsById } from './group-rules.js';
import { groupHref } from './groups-list.js';

type Act = (what: string, f: () => Promise<unknown>) => Promise<void>;

/** A select of candidates and its Add button, disabled with the reason when the user may not add. */
function AddPicker(props: { label: string; placeholder: string; button: string; reasonId: string; may: Allowed; options: readonly { id: number; name: string }[]; onAdd(id: number): void }) {
  const [pick, setPick] = createSignal('');
  return (
    <>
      <div class="group-add">
        <select aria-label={props.label} value={pick()} onChange={(e) => setPick(e.currentTarget.value)} disabled={!props.may.ok}>
          <option value="">{props.placeholder}</option>
          <For each={props.options}>{(o) => <option value={String(o.id)}>{o.name}</option>}</For>
        </select>
        <Button
          size="small"
          disabled={pick() === '' || !props.may.ok}
          aria-describedby={props.may.ok ? undefined : props.reasonId}
          onClick={() => {
            const id = Number(pick());
            setPick('');
            props.onAdd(id);
          }}
        >
          {props.button}
        </Button>
      </div>
      <Show when={reason(props.may)}>
        {(why) => (
          <p class="hint" id={props.reasonId}>
            {why()}
          </p>
        )}
      </Show>
    </>
  );
}

export function MembersSection(props: { group: Group; may: Abilities; bridge: Bridge; act: Act }) {
  const users = useUsers();
  const self = () => users.state.ownUserId;
  const nameOf = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const candidates = createMemo(() =>
    users.state.users
      .filter((u) => u.is_active && !u.is_bot && !props.group.members.includes(u.user_id))
      .sort((a, b) => a.full_name.localeCompare(b.full_name))
      .map((u) => ({ id: u.user_id, name: u.full_name })),
  );
  const members = createMemo(() => [...props.group.members].sort((a, b) => nameOf(a).localeCompare(nameOf(b))));
  const change = (add: number[], del: number[]) => props.act('change the members', () => props.bridge.invoke('updateUserGroupMembers', { user_group_id: props.group.id, add, delete: del }));
  const isSelf = (id: number) => id === self();
  const canRemove = (id: number) => (isSelf(id) ? props.may.leave : props.may.removeMembers);
  return (
    <section class="screen-card group-section" aria-labelledby={`group-${props.group.id}-members`}>
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
                    title={reason(canRemove(id)) ?? undefined}
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
        <AddPicker
          label={`Add a member to ${props.group.name}`}
          placeholder="Choose a person…"
          button="Add member"
          reasonId={`group-${props.group.id}-add-reason`}
          may={props.may.addMembers}
          options={candidates()}
          onAdd={(id) => void change([id], [])}
        />
      </Show>
    </section>
  );
}

export function SubgroupsSection(props: { group: Group; all: GroupsById; may: Abilities; bridge: Bridge; act: Act }) {
  const nameOf = (id: number) => props.all.get(id)?.name ?? `group ${id}`;
  const candidates = createMemo(() => subgroupCandidates(props.group, props.all).sort((a, b) => a.name.localeCompare(b.name)));
  const change = (add: number[], del: number[]) => props.act('change the subgroups', () => props.bridge.invoke('updateUserGroupSubgroups', { user_group_id: props.group.id, add, delete: del }));
  return (
    <Show when={!props.group.is_system_group}>
      <section class="screen-card group-section" aria-labelledby={`group-${props.group.id}-subgroups`}>
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
        <AddPicker
          label={`Add a subgroup to ${props.group.name}`}
          placeholder="Choose a group…"
          button="Add subgroup"
          reasonId={`group-${props.group.id}-sub-reason`}
          may={props.may.addSubgroups}
          options={candidates()}
          onAdd={(id) => void change([id], [])}
        />
      </section>
    </Show>
  );
}
