/** The new channel's policies: message retention (owners), topics, and who may add subscribers or administer it. */
import { For, Show } from 'solid-js';
import type { ChannelCreationView } from '../../../sync/protocol/commands.js';
import type { CreateForm } from './channels-model.js';

export function PolicyFields(props: { form: CreateForm; options: ChannelCreationView; groups: readonly { id: number; label: string }[]; busy: boolean; set<K extends keyof CreateForm>(k: K, v: CreateForm[K]): void }) {
  const form = () => props.form;
  const o = () => props.options;
  const busy = () => props.busy;
  const set = props.set;
  const groups = () => props.groups;
  return (
    <>
          <div class="field-row">
            <Show when={o().is_owner}>
              <label class="field">
                <span class="field-label">Keep messages for</span>
                <select value={form().retention} disabled={busy()} onChange={(e) => set('retention', e.currentTarget.value as CreateForm['retention'])}>
                  <option value="realm_default">The organization’s default</option>
                  <option value="unlimited">Forever</option>
                  <option value="days">A number of days</option>
                </select>
              </label>
              <Show when={form().retention === 'days'}>
                <label class="field">
                  <span class="field-label">Days</span>
                  <input inputMode="numeric" value={form().retentionDays} disabled={busy()} onInput={(e) => set('retentionDays', e.currentTarget.value)} />
                </label>
              </Show>
            </Show>
            <label class="field">
              <span class="field-label">Topics</span>
              <select value={form().topicsPolicy} disabled={busy()} onChange={(e) => set('topicsPolicy', e.currentTarget.value as CreateForm['topicsPolicy'])}>
                <option value="inherit">The organization’s rule</option>
                <option value="allow_empty_topic">Messages may have no topic</option>
                <option value="disable_empty_topic">Every message needs a topic</option>
              </select>
            </label>
          </div>
          <div class="field-row">
            <label class="field">
              <span class="field-label">Who can add subscribers</span>
              <select value={String(form().canAddSubscribersGroup ?? '')} disabled={busy()} onChange={(e) => set('canAddSubscribersGroup', e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}>
                <option value="">The organization’s rule</option>
                <For each={groups()}>{(g) => <option value={String(g.id)}>{g.label}</option>}</For>
              </select>
            </label>
            <label class="field">
              <span class="field-label">Who can administer it</span>
              <select value={String(form().canAdministerGroup ?? '')} disabled={busy()} onChange={(e) => set('canAdministerGroup', e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}>
                <option value="">You, its creator</option>
                <For each={groups()}>{(g) => <option value={String(g.id)}>{g.label}</option>}</For>
              </select>
            </label>
          </div>
    </>
  );
}
