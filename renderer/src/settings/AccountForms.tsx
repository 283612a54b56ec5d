/** Name, email and password: changed with the server at once (`updateAccount`, never queued). */
import { createSignal, For, Show } from 'solid-js';
import { isBridgeError, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import { emailChange, nameChange, passwordChange, type AccountRequest } from './settings-model.js';
import { NEEDS_CONNECTION } from './needs-connection.js';

export function AccountGroup(props: { bridge: Bridge }) {
  const status = useStatus();
  const users = useUsers();
  const me = () => (users.state.ownUserId === null ? undefined : users.byId().get(users.state.ownUserId));
  const offline = () => !status.isLive();
  return (
    <fieldset class="screen-card settings-group">
      <legend>Your account</legend>
      <Show when={offline()}>
        <p class="hint account-offline" role="status">
          Changing your name, email or password {NEEDS_CONNECTION}. The settings below are saved on this device and sent once the app is back online.
        </p>
      </Show>
      <AccountForm
        bridge={props.bridge}
        label="Change your name"
        fields={[{ key: 'name', label: 'Name', type: 'text', autocomplete: 'name', initial: () => me()?.full_name ?? '' }]}
        submit="Save name"
        build={(v) => nameChange(me()?.full_name ?? null, v.name ?? '')}
        done={() => 'Name saved.'}
        disabled={offline()}
      />
      <AccountForm
        bridge={props.bridge}
        label="Change your email"
        fields={[{ key: 'email', label: 'Email', type: 'email', autocomplete: 'email', initial: () => me()?.email ?? '' }]}
        submit="Change email"
        build={(v) => emailChange(me()?.email ?? null, v.email ?? '')}
        done={(r) => `Check ${r.email ?? 'the new address'} for a confirmation link: the change applies once you follow it.`}
        disabled={offline()}
      />
      <AccountForm
        bridge={props.bridge}
        label="Change your password"
        fields={[
          { key: 'old', label: 'Current password', type: 'password', autocomplete: 'current-password', initial: () => '' },
          { key: 'new', label: 'New password', type: 'password', autocomplete: 'new-password', initial: () => '' },
          { key: 'repeat', label: 'Repeat the new password', type: 'password', autocomplete: 'new-password', initial: () => '' },
        ]}
        submit="Change password"
        build={(v) => passwordChange(v.old ?? '', v.new ?? '', v.repeat ?? '')}
        done={() => 'Password changed.'}
        clearAfter
        disabled={offline()}
      />
    </fieldset>
  );
}

interface AccountFieldSpec {
  key: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  initial(): string;
}

function AccountForm(props: {
  bridge: Bridge;
  label: string;
  fields: AccountFieldSpec[];
  submit: string;
  build(values: Record<string, string>): AccountRequest;
  done(request: { email?: string }): string;
  clearAfter?: boolean;
  disabled: boolean;
}) {
  const [edited, setEdited] = createSignal<Record<string, string>>({});
  const update = useCommand(
    async (request: Extract<AccountRequest, { ok: true }>['request']) => {
      await props.bridge.invoke('updateAccount', request);
      return props.done(request);
    },
    { describe: (err) => (isBridgeError(err) && err.code === 'OFFLINE' ? `This ${NEEDS_CONNECTION}; nothing was changed. Try again once the app is back online.` : errorText(err)) },
  );
  const busy = update.busy;
  const valueOf = (f: AccountFieldSpec) => edited()[f.key] ?? f.initial();
  const submit = (e: Event) => {
    e.preventDefault();
    const values = Object.fromEntries(props.fields.map((f) => [f.key, valueOf(f)]));
    const built = props.build(values);
    if (!built.ok) return update.fail(built.error);
    void update.run(built.request).then((ok) => ok && setEdited(props.clearAfter ? Object.fromEntries(props.fields.map((f) => [f.key, ''])) : {}));
  };
  return (
    <form class="account-form" aria-label={props.label} onSubmit={submit}>
      <For each={props.fields}>
        {(f) => (
          <label class="account-field">
            <span class="setting-label">{f.label}</span>
            <input type={f.type} autocomplete={f.autocomplete} value={valueOf(f)} disabled={busy()} onInput={(e) => setEdited({ ...edited(), [f.key]: e.currentTarget.value })} />
          </label>
        )}
      </For>
      <div class="account-actions">
        <Button type="submit" disabled={busy() || props.disabled}>
          {props.submit}
        </Button>
        <Show when={props.disabled}>
          <span class="hint">Needs a connection</span>
        </Show>
      </div>
      <ErrorText message={update.error()} />
      <Show when={update.result()}>
        <p class="account-done" role="status">
          {update.result()}
        </p>
      </Show>
    </form>
  );
}
