/**
 * `#channels/new`: create a channel with the creation parameters that make sense in a form (name,
 * description, public / private / web-public, history for new subscribers, announce, default
 * channel, message retention, topics, who may add subscribers and administer it as a system group,
 * people to subscribe). What the realm does not let the user do is not offered, as far as the
 * engine knows; the server decides, and its refusal shows in its words. Needs a connection (an
 * online-only command); once the server's event lists the channel, its page opens.
 */
import { createEffect, createMemo, createSignal, For, Show } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { useToasts } from '../kit/toasts.js';
import { useRouter } from '../router/router.js';
import { useUsers } from '../data/users.js';
import { channelPageHref, createChannelRequest, EMPTY_FORM, groupChoices, pickablePeople, type CreateForm } from './channels-model.js';
import { useChannelCreation } from './store.js';

export function CreateChannelForm(props: { bridge: Bridge; channels: readonly ChannelListing[] }) {
  const options = useChannelCreation(props.bridge);
  const users = useUsers();
  const toasts = useToasts();
  const router = useRouter();
  const [form, setForm] = createSignal<CreateForm>({ ...EMPTY_FORM });
  const [query, setQuery] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  /** The name just created: its page opens when the channel is listed. */
  const [created, setCreated] = createSignal<string | null>(null);
  const set = <K extends keyof CreateForm>(k: K, v: CreateForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const groups = createMemo(() => groupChoices(options.data?.system_groups ?? []));
  const self = () => users.state.ownUserId;
  const candidates = createMemo(() => pickablePeople(users.state.users, new Set(self() === null ? [] : [self()!]), query(), 30));

  createEffect(() => {
    const name = created();
    if (name === null) return;
    const c = props.channels.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (c) {
      setCreated(null);
      router.navigate(channelPageHref(c));
    }
  });

  const submit = (e: Event) => {
    e.preventDefault();
    const o = options.data;
    if (!o) return;
    const r = createChannelRequest(form(), o, props.channels);
    if (!r.ok) return setError(r.error);
    setBusy(true);
    setError(null);
    props.bridge.invoke('createChannel', r.request).then(
      () => {
        setBusy(false);
        toasts.show(`Channel #${r.request.name} created.`);
        setCreated(r.request.name);
        setForm({ ...EMPTY_FORM });
      },
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err));
      },
    );
  };

  return (
    <Show when={options.data} fallback={<p class="hint" role="status">{options.error ?? 'Loading…'}</p>}>
      {(o) => (
        <form class="channels-body create-channel" aria-label="Create a channel" onSubmit={submit}>
          <p class="hint">Creating a channel needs a connection to the server.</p>
          <label class="field">
            <span class="field-label">Name</span>
            <input required value={form().name} maxLength={o().max_name_length ?? undefined} disabled={busy()} onInput={(e) => set('name', e.currentTarget.value)} />
          </label>
          <label class="field">
            <span class="field-label">Description</span>
            <textarea rows={2} value={form().description} maxLength={o().max_description_length ?? undefined} disabled={busy()} onInput={(e) => set('description', e.currentTarget.value)} />
          </label>
          <fieldset class="field-group">
            <legend class="field-label">Who can access it</legend>
            <label class="choice">
              <input type="radio" name="privacy" checked={form().privacy === 'public'} disabled={busy() || !o().can_create_public} onChange={() => set('privacy', 'public')} />
              Public: everyone in the organization can see and join it
            </label>
            <label class="choice">
              <input type="radio" name="privacy" checked={form().privacy === 'private'} disabled={busy() || !o().can_create_private} onChange={() => set('privacy', 'private')} />
              Private: only people subscribed to it
            </label>
            <Show when={o().web_public_enabled}>
              <label class="choice">
                <input type="radio" name="privacy" checked={form().privacy === 'web_public'} disabled={busy() || !o().can_create_web_public} onChange={() => set('privacy', 'web_public')} />
                Web-public: anyone on the internet can read it
              </label>
            </Show>
          </fieldset>
          <Show when={form().privacy === 'private'}>
            <label class="choice">
              <input type="checkbox" checked={form().historyPublic} disabled={busy()} onChange={(e) => set('historyPublic', e.currentTarget.checked)} />
              New subscribers can see messages sent before they joined
            </label>
          </Show>
          <label class="choice">
            <input type="checkbox" checked={form().announce} disabled={busy()} onChange={(e) => set('announce', e.currentTarget.checked)} />
            Announce the new channel
          </label>
          <Show when={o().is_admin && form().privacy !== 'private'}>
            <label class="choice">
              <input type="checkbox" checked={form().isDefault} disabled={busy()} onChange={(e) => set('isDefault', e.currentTarget.checked)} />
              Default channel: new users are subscribed to it
            </label>
          </Show>
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
          <fieldset class="field-group">
            <legend class="field-label">Subscribe others too</legend>
            <input type="search" class="channels-filter" placeholder="Find people" aria-label="Find people to subscribe" value={query()} disabled={busy()} onInput={(e) => setQuery(e.currentTarget.value)} />
            <ul class="people-picker" aria-label="People to subscribe">
              <For each={candidates()}>
                {(u) => (
                  <li>
                    <label>
                      <input
                        type="checkbox"
                        checked={form().userIds.includes(u.user_id)}
                        disabled={busy()}
                        onChange={(e) => set('userIds', e.currentTarget.checked ? [...form().userIds, u.user_id] : form().userIds.filter((x) => x !== u.user_id))}
                      />
                      {u.full_name}
                    </label>
                  </li>
                )}
              </For>
            </ul>
          </fieldset>
          <Show when={error()}>
            <p class="error" role="alert">
              {error()}
            </p>
          </Show>
          <div class="dialog-actions">
            <Button type="submit" variant="primary" disabled={busy()}>
              Create channel
            </Button>
          </div>
        </form>
      )}
    </Show>
  );
}
