/** Inviting people by email (online only: `sendInvites`); a partial refusal shown address by address. */
import { createEffect, createMemo, createSignal, For, Show } from 'solid-js';
import type { OperationResponse } from '../../../sync/protocol/rpc.js';
import { useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { useChannels } from '../data/channels.js';
import { EXPIRY_PRESETS, inviteOutcome, inviteRequest, isAdminRole, MAX_WELCOME_LENGTH, parseEmails, ROLE_NAMES, roleOptions, type ExpiryUnit, type InviteRole } from './invite-form.js';
import { InviteChoices } from './InviteChoices.js';
import { InviteResult } from './InviteResult.js';

type Options = OperationResponse<'inviteOptions'>;
type InviteReq = Extract<ReturnType<typeof inviteRequest>, { request: unknown }>['request'];

export function InviteForm(props: { bridge: Bridge; live: boolean; ownRole: number | null }) {
  const toasts = useToasts();
  const subscribed = useChannels();
  const options = useLiveQuery<Options | null>(props.bridge, {
    fetch: () => props.bridge.invoke('inviteOptions', {}),
    areas: ['channels', 'subscriptions', 'user_groups'],
    initial: null,
    key: 'channel_id',
  });

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
  // The outcome, sent or refused (address by address), is the command's result; it never fails as such.
  const invite = useCommand((request: InviteReq) =>
    props.bridge.invoke('sendInvites', request).then(
      () => inviteOutcome(request.emails, null),
      (err: unknown) => inviteOutcome(request.emails, err),
    ),
  );
  const busy = invite.busy;
  const outcome = invite.result;

  // The organization's default channels start selected, until the person changes the selection.
  createEffect(() => {
    const o = options.data;
    if (o && !touchedChannels()) setChannelIds(o.channels.filter((c) => c.is_default).map((c) => c.channel_id));
  });
  const channelChoices = createMemo(() => options.data?.channels ?? subscribed.state.channels.map((c) => ({ channel_id: c.channel_id, name: c.name, is_default: false })));
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
    if ('error' in r) return invite.fail(r.error);
    void invite.run(r.request).then(() => {
      const o = outcome();
      if (!o) return;
      if (o.ok) {
        setEmails('');
        toasts.show(o.message);
      } else if (o.invited.length > 0) {
        // Invited addresses leave the box; the refused ones stay, to correct or drop.
        setEmails(o.failed.map((f) => f.email).join('\n'));
      }
    });
  };

  return (
    <form class="screen-card invite-form" aria-label="Invite by email" onSubmit={send}>
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
      <InviteChoices
        options={options}
        live={props.live}
        busy={busy()}
        channels={channelChoices()}
        channelIds={channelIds()}
        onChannels={(ids) => (setTouchedChannels(true), setChannelIds(ids))}
        includeDefaults={includeDefaults()}
        onIncludeDefaults={setIncludeDefaults}
        groupIds={groupIds()}
        onGroups={setGroupIds}
      />
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
      <ErrorText message={invite.error()} />
      <div class="invite-actions">
        <Button type="submit" variant="primary" disabled={!props.live || busy()}>
          {busy() ? 'Sending…' : count() > 1 ? `Send ${count()} invitations` : 'Send invitation'}
        </Button>
      </div>
    </form>
  );
}
