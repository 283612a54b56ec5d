/**
 * One permission setting of a group (a group-setting value): a system group, or specific users and
 * groups picked from lists. The choices the spec forbids for this setting are listed but disabled;
 * a value that breaks a rule says why and cannot be saved. Saving queues `updateUserGroup` with
 * `{new, old}`: `old` is the value shown when editing began, so the server refuses to overwrite a
 * change made elsewhere meanwhile (EXPECTATION_MISMATCH) instead of silently losing it.
 */
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
import type { UserGroupPermission } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useToasts } from '../kit/toasts.js';
import { useUsers } from '../data/users.js';
import { draftOf, editDraft, PERMISSION_LABELS, sameValue, settingProblem, systemChoices, valueInWords, valueOf, type Group, type GroupsById, type SettingAction } from './group-rules.js';

export function SettingEditor(props: { group: Group; setting: UserGroupPermission; groups: readonly Group[]; all: GroupsById; disabledWhy: string | null; bridge: Bridge }) {
  const users = useUsers();
  const toasts = useToasts();
  const label = () => PERMISSION_LABELS[props.setting];
  const stored = () => props.group[props.setting];
  const [draft, setDraft] = createSignal(draftOf(stored(), props.all));
  // What the user saw when they began editing: the `old` of the update.
  const [seen, setSeen] = createSignal(stored());
  const [error, setError] = createSignal<string | null>(null);
  // A change arriving from the server (or the queued one applied) restarts an untouched editor.
  createEffect(
    on(
      () => JSON.stringify(stored()),
      () => {
        if (sameValue(valueOf(draft(), props.setting), seen())) {
          setDraft(draftOf(stored(), props.all));
          setSeen(stored());
        }
      },
      { defer: true },
    ),
  );
  const dispatch = (a: SettingAction) => (setDraft(editDraft(draft(), a)), setError(null));
  const value = createMemo(() => valueOf(draft(), props.setting));
  const problem = createMemo(() => settingProblem(props.setting, value(), props.all));
  const changed = () => !sameValue(value(), stored());
  const disabled = () => props.disabledWhy !== null;
  const choices = createMemo(() => systemChoices(props.setting, props.groups));
  const userName = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const groupName = (id: number) => props.all.get(id)?.name ?? `group ${id}`;
  const userCandidates = createMemo(() => {
    const d = draft();
    const taken = d.mode === 'custom' ? d.users : [];
    return users.state.users.filter((u) => u.is_active && !u.is_bot && !taken.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  });
  const groupCandidates = createMemo(() => {
    const d = draft();
    const taken = d.mode === 'custom' ? d.groups : [];
    return props.groups.filter((g) => !g.deactivated && !taken.includes(g.id) && (!g.is_system_group || choices().some((c) => c.group.id === g.id && c.allowed)));
  });
  const id = `group-${props.group.id}-${props.setting}`;
  const save = () => {
    const p = problem();
    if (p !== null) return setError(p);
    const old = seen();
    const sent = value();
    props.bridge
      .invoke('updateUserGroup', { user_group_id: props.group.id, permissions: { [props.setting]: old === null ? { new: value() } : { new: value(), old } } })
      .then(
        () => {
          // What is shown from now on is the value just queued: the next change starts from it.
          setSeen(sent);
          toasts.show(`${label()}: saved on this device; it goes to the server when it can.`);
        },
        (e: unknown) => setError(errorText(e)),
      );
  };
  const groupLabel = (g: Group) => (g.is_system_group ? (choices().find((c) => c.group.id === g.id)?.label ?? g.name) : g.name);

  return (
    <fieldset class="group-setting" aria-describedby={`${id}-now`}>
      <legend>{label()}</legend>
      <p class="hint" id={`${id}-now`}>
        Now: {valueInWords(stored(), props.all, { user: (u) => users.byId().get(u)?.full_name })}
      </p>
      <select
        aria-label={label()}
        value={draft().mode === 'system' ? String((draft() as { group: number }).group) : 'custom'}
        disabled={disabled()}
        title={props.disabledWhy ?? undefined}
        onChange={(e) => dispatch(e.currentTarget.value === 'custom' ? { type: 'custom' } : { type: 'system', group: Number(e.currentTarget.value) })}
      >
        <For each={choices()}>
          {(c) => (
            <option value={String(c.group.id)} disabled={!c.allowed}>
              {c.allowed ? c.label : `${c.label} (not allowed here)`}
            </option>
          )}
        </For>
        <option value="custom">Specific users and groups</option>
      </select>
      <Show when={draft().mode === 'custom' && draft()}>
        {(d) => {
          const custom = () => d() as { users: readonly number[]; groups: readonly number[] };
          const [userPick, setUserPick] = createSignal('');
          const [groupPick, setGroupPick] = createSignal('');
          return (
            <div class="group-setting-custom">
              <ul class="group-chips" aria-label={`${label()}: chosen`}>
                <For each={custom().groups}>
                  {(g) => (
                    <li class="group-chip">
                      <span>{groupLabel(props.all.get(g) ?? ({ id: g, name: groupName(g), is_system_group: false } as Group))}</span>
                      <Button size="small" variant="quiet" disabled={disabled()} aria-label={`Remove ${groupName(g)} from: ${label()}`} onClick={() => dispatch({ type: 'remove_group', id: g })}>
                        ✕
                      </Button>
                    </li>
                  )}
                </For>
                <For each={custom().users}>
                  {(u) => (
                    <li class="group-chip">
                      <span>{userName(u)}</span>
                      <Button size="small" variant="quiet" disabled={disabled()} aria-label={`Remove ${userName(u)} from: ${label()}`} onClick={() => dispatch({ type: 'remove_user', id: u })}>
                        ✕
                      </Button>
                    </li>
                  )}
                </For>
                <Show when={custom().groups.length + custom().users.length === 0}>
                  <li class="hint">Nobody yet</li>
                </Show>
              </ul>
              <div class="group-add">
                <select aria-label={`Add a person to: ${label()}`} value={userPick()} disabled={disabled()} onChange={(e) => setUserPick(e.currentTarget.value)}>
                  <option value="">Choose a person…</option>
                  <For each={userCandidates()}>{(u) => <option value={String(u.user_id)}>{u.full_name}</option>}</For>
                </select>
                <Button size="small" disabled={disabled() || userPick() === ''} aria-label={`Add the person to: ${label()}`} onClick={() => (dispatch({ type: 'add_user', id: Number(userPick()) }), setUserPick(''))}>
                  Add
                </Button>
                <select aria-label={`Add a group to: ${label()}`} value={groupPick()} disabled={disabled()} onChange={(e) => setGroupPick(e.currentTarget.value)}>
                  <option value="">Choose a group…</option>
                  <For each={groupCandidates()}>{(g) => <option value={String(g.id)}>{groupLabel(g)}</option>}</For>
                </select>
                <Button size="small" disabled={disabled() || groupPick() === ''} aria-label={`Add the group to: ${label()}`} onClick={() => (dispatch({ type: 'add_group', id: Number(groupPick()) }), setGroupPick(''))}>
                  Add
                </Button>
              </div>
            </div>
          );
        }}
      </Show>
      <ErrorText message={problem() ?? error()} />
      <Show when={changed()}>
        <div class="group-setting-actions">
          <Button size="small" variant="primary" disabled={disabled() || problem() !== null} aria-label={`Save: ${label()}`} onClick={save}>
            Save
          </Button>
          <Button size="small" variant="quiet" aria-label={`Undo: ${label()}`} onClick={() => (setDraft(draftOf(stored(), props.all)), setSeen(stored()), setError(null))}>
            Undo
          </Button>
        </div>
      </Show>
    </fieldset>
  );
}
