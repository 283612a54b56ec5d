/**
 * `#invite`: invite people by email, and (administrators) create a user directly. Both need the
 * server at once (online-only operations): while the account is not live the screen says so first
 * and its buttons are disabled, so nothing is half sent. The channel list comes from the server
 * (`inviteOptions`) with the organization's default channels pre-selected; roles offered never go
 * above one's own. A partial refusal (`INVITATION_FAILED`) is shown address by address, with the
 * addresses that were invited all the same and any limit reached.
 */
import { Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import { isAdminRole, NEEDS_CONNECTION, roleOptions } from './invite-form.js';
import { InviteForm } from './InviteForm.js';
import { CreateUserForm } from './CreateUserForm.js';
import './invite.css';

export function InviteView(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const users = useUsers();
  const status = useStatus();
  const ownRole = () => users.state.ownRole;
  return (
    <section class="narrow screen invite-view" aria-label="Invite users">
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
