/** Administrators: create a user directly (online only: `createUser`), with a password to pass on. */
import { createSignal, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { createUserRequest, NEEDS_CONNECTION } from './invite-form.js';

type CreateReq = Extract<ReturnType<typeof createUserRequest>, { request: unknown }>['request'];

export function CreateUserForm(props: { bridge: Bridge; live: boolean }) {
  const toasts = useToasts();
  const [email, setEmail] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [fullName, setFullName] = createSignal('');
  const create = useCommand(async (request: CreateReq) => {
    const res = await props.bridge.invoke('createUser', request);
    return `Created ${request.full_name} <${request.email}> (user id ${res.user_id}).`;
  });
  const busy = create.busy;
  const created = create.result;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!props.live || busy()) return;
    const r = createUserRequest({ email: email(), password: password(), fullName: fullName() });
    if ('error' in r) return create.fail(r.error);
    void create.run(r.request).then((ok) => {
      if (!ok) return;
      toasts.show(created() ?? '');
      setEmail('');
      setPassword('');
      setFullName('');
    });
  };
  return (
    <form class="screen-card invite-form create-user-form" aria-labelledby="create-user-title" onSubmit={submit}>
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
      <ErrorText message={create.error()} />
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
