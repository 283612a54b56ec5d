/**
 * `#invite`: invite people by email, and (administrators) create a user directly. Both need the
 * server at once (online-only operations): while the account is not live the screen says so first
 * and its buttons are disabled, so nothing is half sent. The channel list comes from the server
 * (`inviteOptions`) with the organization's default channels pre-selected; roles offered never go
 * above one's own. A partial refusal (`INVITATION_FAILED`) is shown address by address, with the
 * addresses that were invited all the same and any limit reached.
 */
import { createEffect, createMemo, createSignal, For, onCleanup, Show } from 'solid-js';
import type { OperationResponse } from '../../../sync/protocol/rpc.js';
import { createAreaQuery, turnedLive } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { useToasts } from '../kit/toasts.js';
import { useChannels } from '../data/channels.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import {
  createUserRequest,
  EXPIRY_PRESETS,
  inviteOutcome,
  inviteRequest,
  isAdminRole,
  MAX_WELCOME_LENGTH,
  parseEmails,
  ROLE_NAMES,
  roleOptions,
  type ExpiryUnit,
  type InviteOutcome,
  type InviteRole,
} from './invite-form.js';
import './invite.css';

type Options = OperationResponse<'inviteOptions'>;

const NEEDS_CONNECTION = 'needs a connection to the server. You are not connected now; nothing will be sent until you are back online.';

export function InviteView(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const users = useUsers();
  const status = useStatus();
  const ownRole = () => users.state.ownRole;
  return (
    <section class="narrow invite-view" aria-label="Invite users">
      <h1 class="invite-title">Invite users</h1>
      <Show when={!status.isLive()}>
        <p class="invite-offline" role="status">
          Inviting people {NEEDS_CONNECTION}
        </p>
      </Show>
      <Show when={ownRole() !== null && roleOptions(ownRole()).length === 0}>
        <p class="hint">Guests cannot invite people to this organization.</p>
      </Show>
      <Show when={roleOptions(ownRole()).length > 0}>
        <InviteForm bridge={bridge} live={status.isLive()} ownRole={ownRole()} />
      </Show>
      <Show when={isAdminRole(ownRole())}>
        <CreateUserForm bridge={bridge} live={status.isLive()} />
      </Show>
    </section>
  );
}

function InviteForm(props: { bridge: Bridge; live: boolean; ownRole: number | null }) {
  const toasts = useToasts();
  const subscribed = useChannels();
  const q = createAreaQuery<Options | null>(props.bridge, {
    fetch: () => props.bridge.invoke('inviteOptions', {}),
    areas: ['channels', 'subscriptions', 'user_groups'],
    when: turnedLive,
    initial: null,
    key: 'channel_id',
    onError: 'keep',
  });
  onCleanup(q.dispose);

  const roles = () => roleOptions(props.ownRole);
  const [emails, setEmails] = createSignal('');
  const [inviteAs, setInviteAs] = createSignal<InviteRole>(400);
  const [channelIds, setChannelIds] = createSignal<number[]>([]);
  const [touchedChannels, setTouchedChannels] = createSignal(false);
  const [includeDefaults, setIncludeDefaults] = createSignal(false);
  const [groupIds, setGroupIds] = createSignal<number[]>([]);
  const [expiry, setExpiry] = createSignal('10d');
  const [customAmount, setCustomAmount] = createSignal('');
  const [customUnit, setCustomUnit] = createSignal<ExpiryUnit>('days');
  const [notify, setNotify] = createSignal(true);
  const [customWelcome, setCustomWelcome] = createSignal(false);
  const [welcome, setWelcome] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [outcome, setOutcome] = createSignal<InviteOutcome | null>(null);

  // The organization's default channels start selected, until the person changes the selection.
  createEffect(() => {
    const o = q.state.data;
    if (o && !touchedChannels()) setChannelIds(o.channels.filter((c) => c.is_default).map((c) => c.channel_id));
  });
  const channelChoices = createMemo(() => q.state.data?.channels ?? subscribed.state.channels.map((c) => ({ channel_id: c.channel_id, name: c.name, is_default: false })));
  const toggle = (list: number[], id: number, on: boolean) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id));
  const count = () => parseEmails(emails()).length;

  const send = (e: Event) => {
    e.preventDefault();
    if (!props.live || busy()) return;
    const r = inviteRequest(
      {
        emails: emails(),
        inviteAs: inviteAs(),
        channelIds: channelIds(),
        includeDefaults: includeDefaults(),
        groupIds: groupIds(),
        expiry: expiry(),
        customAmount: customAmount(),
        customUnit: customUnit(),
        notifyReferrer: notify(),
        welcome: customWelcome() ? welcome() : null,
      },
      props.ownRole,
    );
    if ('error' in r) return setProblem(r.error);
    setProblem(null);
    setOutcome(null);
    setBusy(true);
    const sent = r.request.emails;
    props.bridge.invoke('sendInvites', r.request).then(
      () => {
        setBusy(false);
        const o = inviteOutcome(sent, null);
        setOutcome(o);
        setEmails('');
        toasts.show(o.message);
      },
      (err: unknown) => {
        setBusy(false);
        const o = inviteOutcome(sent, err);
        setOutcome(o);
        // Invited addresses leave the box; the refused ones stay, to correct or drop.
        if (o.invited.length > 0) setEmails(o.failed.map((f) => f.email).join('\n'));
      },
    );
  };

  return (
    <form class="invite-form" aria-label="Invite by email" onSubmit={send}>
      <Show when={outcome()}>{(o) => <InviteResult outcome={o()} />}</Show>
      <label class="invite-field">
        <span class="invite-label">Emails (separated by commas or new lines)</span>
        <textarea rows={3} value={emails()} onInput={(e) => setEmails(e.currentTarget.value)} disabled={busy()} placeholder="one@example.com, two@example.com" />
      </label>
      <div class="invite-row">
        <label class="invite-field">
          <span class="invite-label">Invite as</span>
          <select value={String(inviteAs())} onChange={(e) => setInviteAs(Number(e.currentTarget.value) as InviteRole)} disabled={busy()}>
            <For each={roles()}>{(r) => <option value={String(r)}>{ROLE_NAMES[r]}</option>}</For>
          </select>
        </label>
        <label class="invite-field">
          <span class="invite-label">Invitation expires after</span>
          <select value={expiry()} onChange={(e) => setExpiry(e.currentTarget.value)} disabled={busy()}>
            <For each={EXPIRY_PRESETS}>{(p) => <option value={p.id}>{p.label}</option>}</For>
            <option value="custom">Custom</option>
          </select>
        </label>
        <Show when={expiry() === 'custom'}>
          <label class="invite-field invite-narrow">
            <span class="invite-label">Custom expiry</span>
            <input inputmode="numeric" value={customAmount()} onInput={(e) => setCustomAmount(e.currentTarget.value)} disabled={busy()} />
          </label>
          <label class="invite-field">
            <span class="invite-label">Unit</span>
            <select value={customUnit()} onChange={(e) => setCustomUnit(e.currentTarget.value as ExpiryUnit)} disabled={busy()}>
              <option value="minutes">minutes</option>
              <option value="hours">hours</option>
              <option value="days">days</option>
            </select>
          </label>
        </Show>
      </div>
      <fieldset class="invite-group">
        <legend>Channels</legend>
        <label class="invite-check">
          <input type="checkbox" checked={includeDefaults()} onChange={(e) => setIncludeDefaults(e.currentTarget.checked)} disabled={busy()} />
          Include the organization’s default channels
        </label>
        <Show when={q.state.data === null && props.live}>
          <p class="hint">Asking the server for the default channels…</p>
        </Show>
        <Show when={q.state.error !== null && props.live}>
          <p class="error">{q.state.error}</p>
        </Show>
        <ul class="invite-choices" aria-label="Channels to subscribe them to">
          <For each={channelChoices()}>
            {(c) => (
              <li>
                <label class="invite-check">
                  <input
                    type="checkbox"
                    checked={channelIds().includes(c.channel_id)}
                    onChange={(e) => {
                      setTouchedChannels(true);
                      setChannelIds(toggle(channelIds(), c.channel_id, e.currentTarget.checked));
                    }}
                    disabled={busy()}
                  />
                  #{c.name}
                  <Show when={c.is_default}>
                    <span class="badge badge-neutral">default</span>
                  </Show>
                </label>
              </li>
            )}
          </For>
        </ul>
      </fieldset>
      <Show when={(q.state.data?.groups.length ?? 0) > 0}>
        <fieldset class="invite-group">
          <legend>Groups</legend>
          <ul class="invite-choices" aria-label="Groups to add them to">
            <For each={q.state.data?.groups ?? []}>
              {(g) => (
                <li>
                  <label class="invite-check" title={g.description}>
                    <input type="checkbox" checked={groupIds().includes(g.group_id)} onChange={(e) => setGroupIds(toggle(groupIds(), g.group_id, e.currentTarget.checked))} disabled={busy()} />
                    {g.name}
                  </label>
                </li>
              )}
            </For>
          </ul>
        </fieldset>
      </Show>
      <label class="invite-check">
        <input type="checkbox" checked={notify()} onChange={(e) => setNotify(e.currentTarget.checked)} disabled={busy()} />
        Send me a direct message when they join
      </label>
      <Show when={isAdminRole(props.ownRole)}>
        <label class="invite-check">
          <input type="checkbox" checked={customWelcome()} onChange={(e) => setCustomWelcome(e.currentTarget.checked)} disabled={busy()} />
          Send a custom welcome message (empty: none; unticked: the organization’s default)
        </label>
        <Show when={customWelcome()}>
          <label class="invite-field">
            <span class="invite-label">Custom welcome message</span>
            <textarea rows={3} maxLength={MAX_WELCOME_LENGTH} value={welcome()} onInput={(e) => setWelcome(e.currentTarget.value)} disabled={busy()} />
          </label>
        </Show>
      </Show>
      <Show when={problem()}>
        <p class="error" role="alert">
          {problem()}
        </p>
      </Show>
      <div class="invite-actions">
        <Button type="submit" variant="primary" disabled={!props.live || busy()}>
          {busy() ? 'Sending…' : count() > 1 ? `Send ${count()} invitations` : 'Send invitation'}
        </Button>
      </div>
    </form>
  );
}

function InviteResult(props: { outcome: InviteOutcome }) {
  const o = () => props.outcome;
  return (
    <div class="invite-result" classList={{ failed: !o().ok }} role={o().ok ? 'status' : 'alert'}>
      <p>{o().ok ? o().message : errorLine(o())}</p>
      <Show when={o().failed.length > 0}>
        <ul class="invite-failures" aria-label="Addresses not invited">
          <For each={o().failed}>
            {(f) => (
              <li>
                <span class="invite-email">{f.email}</span>: {f.reason}
                {f.deactivated ? ' (deactivated)' : ''}
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={!o().ok && o().invited.length > 0}>
        <p>Invited: {o().invited.join(', ')}</p>
      </Show>
      <For each={o().limits}>{(l) => <p>{l}</p>}</For>
    </div>
  );
}

/** Partly sent: the server's summary as it is; refused outright: said so (errorText already does for other refusals). */
const errorLine = (o: InviteOutcome) => (o.invited.length > 0 ? o.message : o.failed.length > 0 || o.limits.length > 0 ? `The server refused: ${o.message}` : o.message);

function CreateUserForm(props: { bridge: Bridge; live: boolean }) {
  const toasts = useToasts();
  const [email, setEmail] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [fullName, setFullName] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [problem, setProblem] = createSignal<string | null>(null);
  const [created, setCreated] = createSignal<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!props.live || busy()) return;
    const r = createUserRequest({ email: email(), password: password(), fullName: fullName() });
    if ('error' in r) return setProblem(r.error);
    setProblem(null);
    setCreated(null);
    setBusy(true);
    props.bridge.invoke('createUser', r.request).then(
      (res) => {
        setBusy(false);
        const text = `Created ${r.request.full_name} <${r.request.email}> (user id ${res.user_id}).`;
        setCreated(text);
        toasts.show(text);
        setEmail('');
        setPassword('');
        setFullName('');
      },
      (err: unknown) => {
        setBusy(false);
        setProblem(errorText(err));
      },
    );
  };
  return (
    <form class="invite-form create-user-form" aria-labelledby="create-user-title" onSubmit={submit}>
      <h2 class="invite-subtitle" id="create-user-title">
        Create a user
      </h2>
      <p class="hint">Administrators the server allows to create users can make an account directly, with a password to pass on.</p>
      <Show when={!props.live}>
        <p class="invite-offline" role="status">
          Creating a user {NEEDS_CONNECTION}
        </p>
      </Show>
      <div class="invite-row">
        <label class="invite-field">
          <span class="invite-label">New user’s email</span>
          <input type="email" autocomplete="off" value={email()} onInput={(e) => setEmail(e.currentTarget.value)} disabled={busy()} />
        </label>
        <label class="invite-field">
          <span class="invite-label">Full name</span>
          <input autocomplete="off" value={fullName()} onInput={(e) => setFullName(e.currentTarget.value)} disabled={busy()} />
        </label>
        <label class="invite-field">
          <span class="invite-label">New user’s password</span>
          <input type="password" autocomplete="new-password" value={password()} onInput={(e) => setPassword(e.currentTarget.value)} disabled={busy()} />
        </label>
      </div>
      <Show when={problem()}>
        <p class="error" role="alert">
          {problem()}
        </p>
      </Show>
      <Show when={created()}>
        <p class="invite-result" role="status">
          {created()}
        </p>
      </Show>
      <div class="invite-actions">
        <Button type="submit" variant="primary" disabled={!props.live || busy()}>
          {busy() ? 'Creating…' : 'Create user'}
        </Button>
      </div>
    </form>
  );
}
