/**
 * The first screen: sign in to a Zulip server (URL, email, then a password or an API key), or open
 * the sandbox; above them, what is kept on this device for accounts signed out with "keep" (their
 * unsent changes and drafts, resumed by signing in to that account again). Where the host cannot
 * encrypt stored keys, the engine refuses with PLAIN_STORAGE_CONSENT_REQUIRED; we ask, and retry with `allow_plain_storage` only on "yes".
 */
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { createStore } from 'solid-js/store';
import { signInOutcome, signInRequest, type Credential, type SignInForm } from './signin-reducer.js';
import { useAccounts } from '../data/accounts.js';
import { keptText } from './sign-out-reducer.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { CertificatePrompt } from './CertificatePrompt.js';
import { linkSignIn } from './app-links.js';
import './welcome.css';

function SignInCard() {
  const accounts = useAccounts();
  const [form, setForm] = createStore<SignInForm>({ serverUrl: '', email: '', method: 'password', secret: '' });
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [consent, setConsent] = createSignal<string | null>(null);
  /** The server whose certificate is not trusted (the URL signed in to). */
  const [untrusted, setUntrusted] = createSignal<string | null>(null);
  // A zulip:// link to a server with no account here fills in its URL.
  createEffect(on(linkSignIn.server, (url) => url !== null && setForm('serverUrl', url)));

  // The consent given last: a sign-in again after trusting a certificate keeps it.
  let allowedPlain = false;
  const attempt = async (allowPlain: boolean) => {
    allowedPlain = allowPlain;
    const built = signInRequest({ ...form }, allowPlain);
    if (!built.ok) {
      setError(built.error);
      return;
    }
    setBusy(true);
    setError(null);
    setConsent(null);
    setUntrusted(null);
    let failure: unknown;
    try {
      await accounts.signIn(built.request);
    } catch (e) {
      failure = e;
    }
    setBusy(false);
    if (failure === undefined) linkSignIn.done();
    const outcome = signInOutcome(failure);
    if (outcome.kind === 'ask-consent') setConsent(outcome.message);
    else if (outcome.kind === 'certificate') {
      setError(outcome.message);
      setUntrusted(built.request.realm_url);
    } else if (outcome.kind === 'error') setError(outcome.message);
  };

  const methodLabel = () => (form.method === 'password' ? 'Password' : 'API key');
  return (
    <section class="card" aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in to a Zulip server</h2>
      <form
        class="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void attempt(false);
        }}
      >
        <label class="field">
          <span>Server URL</span>
          <input type="text" inputMode="url" autocomplete="url" placeholder="https://chat.example.com" value={form.serverUrl} onInput={(e) => setForm('serverUrl', e.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Email</span>
          <input type="email" autocomplete="username" value={form.email} onInput={(e) => setForm('email', e.currentTarget.value)} />
        </label>
        <fieldset class="choice">
          <legend>Sign in with</legend>
          {(['password', 'api_key'] as const).map((m: Credential) => (
            <label class="radio">
              <input type="radio" name="method" value={m} checked={form.method === m} onChange={() => setForm({ method: m, secret: '' })} />
              {m === 'password' ? 'Password' : 'API key'}
            </label>
          ))}
        </fieldset>
        <label class="field">
          <span>{methodLabel()}</span>
          <input type="password" autocomplete={form.method === 'password' ? 'current-password' : 'off'} value={form.secret} onInput={(e) => setForm('secret', e.currentTarget.value)} />
        </label>
        <Button type="submit" variant="primary" disabled={busy()}>
          {busy() ? 'Signing in…' : 'Sign in'}
        </Button>
        <Show when={linkSignIn.server() !== null && accounts.active()}>
          {(account) => (
            <Button type="button" onClick={() => linkSignIn.done()}>
              Back to {account().realm_url}
            </Button>
          )}
        </Show>
        <ErrorText message={error()} />
      </form>
      <Show when={untrusted()}>{(url) => <CertificatePrompt realmUrl={url()} onTrusted={() => void attempt(allowedPlain)} />}</Show>
      <Show when={consent()}>
        {(message) => (
          <div class="consent" role="alertdialog" aria-labelledby="consent-title" aria-describedby="consent-text">
            <h3 id="consent-title">Store your API key without encryption?</h3>
            <p id="consent-text">
              {message()} Anyone who can read files in your account on this computer could then use the key to act as you.
            </p>
            <div class="actions">
              <Button variant="primary" onClick={() => void attempt(true)}>
                Store unencrypted and sign in
              </Button>
              <Button onClick={() => setConsent(null)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
      </Show>
    </section>
  );
}

function SandboxCard() {
  const accounts = useAccounts();
  const open = useCommand(async () => {
    await accounts.openSandbox();
    linkSignIn.done();
  });
  const busy = open.busy;
  const available = () => accounts.state.data?.sandbox_available !== false;
  return (
    <section class="card" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Try the sandbox</h2>
      <p>A demo organisation that runs inside the app: channels, topics and conversations to explore. Nothing leaves this computer.</p>
      <Button variant="primary" disabled={busy() || !available()} onClick={() => void open.run()}>
        {busy() ? 'Opening the sandbox…' : 'Open the sandbox'}
      </Button>
      <Show when={!available()}>
        <p class="hint">The sandbox is not available in this build.</p>
      </Show>
      <ErrorText message={open.error()} />
    </section>
  );
}

export function WelcomeScreen() {
  const accounts = useAccounts();
  return (
    <main class="welcome">
      <header class="welcome-header">
        <h1>Zulip Offline</h1>
        <p>Your team chat, readable and writable offline. Choose how to start.</p>
      </header>
      <Show when={(accounts.state.data?.kept ?? []).length > 0}>
        <section class="card welcome-kept" role="status" aria-labelledby="kept-title">
          <h2 id="kept-title">Kept on this device</h2>
          <For each={accounts.state.data?.kept ?? []}>{(k) => <p>{keptText(k)}</p>}</For>
        </section>
      </Show>
      <div class="choices">
        <SignInCard />
        <SandboxCard />
      </div>
    </main>
  );
}
