/**
 * `#channels/new`: create a channel with the creation parameters that make sense in a form (name,
 * description, public / private / web-public, history for new subscribers, announce, default
 * channel, message retention, topics, who may add subscribers and administer it as a system group,
 * people to subscribe). What the realm does not let the user do is not offered, as far as the
 * engine knows; the server decides, and its refusal shows in its words. Needs a connection (an
 * online-only command); once the server's event lists the channel, its page opens.
 */
import { createEffect, createMemo, createSignal, Show } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { useRouter } from '../router/router.js';
import { useUsers } from '../data/users.js';
import { channelPageHref, createChannelRequest, EMPTY_FORM, groupChoices, pickablePeople, type CreateForm } from './channels-model.js';
import { PeopleChecklist } from './PeopleChecklist.js';
import { PolicyFields } from './PolicyFields.js';
import { useChannelCreation } from './store.js';

export function CreateChannelForm(props: { bridge: Bridge; channels: readonly ChannelListing[] }) {
  const options = useChannelCreation(props.bridge);
  const users = useUsers();
  const toasts = useToasts();
  const router = useRouter();
  const [form, setForm] = createSignal<CreateForm>({ ...EMPTY_FORM });
  const [query, setQuery] = createSignal('');
  const create = useCommand((request: Extract<ReturnType<typeof createChannelRequest>, { ok: true }>['request']) => props.bridge.invoke('createChannel', request));
  const busy = create.busy;
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
    if (!r.ok) return create.fail(r.error);
    void create.run(r.request).then((ok) => {
      if (!ok) return;
      toasts.show(`Channel #${r.request.name} created.`);
      setCreated(r.request.name);
      setForm({ ...EMPTY_FORM });
    });
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
          <PolicyFields form={form()} options={o()} groups={groups()} busy={busy()} set={set} />
          <fieldset class="field-group">
            <legend class="field-label">Subscribe others too</legend>
            <input type="search" class="channels-filter" placeholder="Find people" aria-label="Find people to subscribe" value={query()} disabled={busy()} onInput={(e) => setQuery(e.currentTarget.value)} />
            <PeopleChecklist people={candidates()} picked={form().userIds} disabled={busy()} onToggle={(id, on) => set('userIds', on ? [...form().userIds, id] : form().userIds.filter((x) => x !== id))} />
          </fieldset>
          <ErrorText message={create.error()} />
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
