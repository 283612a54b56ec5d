/**
 * `#settings/...`: the user's personal settings, in Zulip's tabs (Account & privacy, Preferences,
 * Notifications; `#settings` alone opens the first). Values are the engine's (`userSettings`, the
 * local value: a change shows at once, display ones on the page too). A setting change is queued
 * (`updateSettings`), so it works offline: the control says "Not saved yet" while its outbox row
 * waits, and a failed one shows the server's words with Retry and Discard. The name, the email and
 * the password need the server at once (`updateAccount`: a password never rests in the outbox), and
 * so does the test notification; offline they say so up front and are disabled.
 */
import { createMemo, createSignal, For, Match, Show, Switch } from 'solid-js';
import { bridge as defaultBridge, isBridgeError, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useOutbox } from '../data/outbox.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import {
  choicesFor,
  currentValue,
  emailChange,
  groupsOf,
  nameChange,
  parseInput,
  passwordChange,
  settingMark,
  SETTINGS_TABS,
  settingLabel,
  tabOf,
  type AccountRequest,
  type SettingControl,
  type SettingValue,
} from './settings-model.js';
import { useSettings } from '../data/settings.js';
import './settings.css';

const TIME_ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
const NEEDS_CONNECTION = 'needs a connection to the server';

export function SettingsView(props: { rest: readonly string[]; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const settings = useSettings();
  const tab = () => tabOf(props.rest);
  return (
    <section class="narrow settings-view" aria-label="Personal settings">
      <header class="settings-header">
        <h1 class="settings-title">Personal settings</h1>
      </header>
      <nav class="settings-tabs" aria-label="Settings tabs">
        <For each={SETTINGS_TABS}>
          {(t) => (
            <a class="settings-tab" href={`#settings/${t.id}`} aria-current={tab() === t.id ? 'page' : undefined}>
              {t.label}
            </a>
          )}
        </For>
      </nav>
      <Show when={settings.raw()} fallback={<EmptyState title="Loading your settings…" role="status" />}>
        <div class="settings-body">
          <Show when={tab() === 'account-and-privacy'}>
            <AccountGroup bridge={bridge} />
          </Show>
          <For each={groupsOf(tab())}>
            {(g) => (
              <fieldset class="settings-group">
                <legend>{g.group}</legend>
                <For each={g.controls}>{(c) => <SettingRow control={c} bridge={bridge} />}</For>
              </fieldset>
            )}
          </For>
          <Show when={tab() === 'notifications'}>
            <TestNotification bridge={bridge} />
            <ApnsToken bridge={bridge} />
          </Show>
        </div>
      </Show>
    </section>
  );
}

function SettingRow(props: { control: SettingControl; bridge: Bridge }) {
  const settings = useSettings();
  const outbox = useOutbox();
  const c = props.control;
  const id = `setting-${c.name}`;
  const value = () => currentValue(c, settings.raw());
  const choices = createMemo(() => choicesFor(c, settings.raw(), { timeZones: TIME_ZONES }));
  const mark = () => settingMark(outbox.state.rows, c.name);
  const failed = () => {
    const m = mark();
    return m?.status === 'failed' ? m : null;
  };
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const change = (input: string | boolean) => {
    const parsed = parseInput(c, input, choices());
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    void save(parsed.value);
  };
  const save = async (v: SettingValue) => {
    try {
      await props.bridge.invoke('updateSettings', { settings: { [c.name]: v } });
    } catch (e) {
      setError(errorText(e));
    } finally {
      // The engine applied it locally (or refused it): show its value, and the row behind it.
      void settings.refresh();
      void outbox.refresh();
    }
  };
  const act = async (f: () => Promise<void>) => {
    setBusy(true);
    try {
      await f();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
      void settings.refresh();
    }
  };

  const describedBy = () => [c.hint ? `${id}-hint` : '', mark() || error() ? `${id}-state` : ''].filter(Boolean).join(' ') || undefined;
  const control = () => {
    switch (c.kind) {
      case 'switch':
        return <input id={id} type="checkbox" checked={value() === true} aria-describedby={describedBy()} onChange={(e) => change(e.currentTarget.checked)} />;
      case 'number':
        return (
          <span class="setting-number">
            <input
              id={id}
              type="number"
              inputmode="numeric"
              min={c.min}
              max={c.max}
              step={1}
              value={typeof value() === 'number' ? String(value()) : ''}
              aria-describedby={describedBy()}
              aria-invalid={error() !== null ? 'true' : undefined}
              onChange={(e) => change(e.currentTarget.value)}
            />
            <Show when={c.unit}>
              <span class="setting-unit">{c.unit}</span>
            </Show>
          </span>
        );
      default:
        return (
          <select id={id} value={String(value() ?? '')} aria-describedby={describedBy()} onChange={(e) => change(e.currentTarget.value)}>
            <Show when={value() === undefined || value() === null}>
              <option value="">Not set</option>
            </Show>
            <For each={choices()}>{(o) => <option value={String(o.value)}>{o.label}</option>}</For>
          </select>
        );
    }
  };

  return (
    <div class="setting-row" classList={{ 'setting-check': c.kind === 'switch', 'setting-failed': mark()?.status === 'failed' }} data-setting={c.name}>
      <Show
        when={c.kind === 'switch'}
        fallback={
          <>
            <label class="setting-label" for={id}>
              {c.label}
            </label>
            {control()}
          </>
        }
      >
        {control()}
        <label class="setting-label" for={id}>
          {c.label}
        </label>
      </Show>
      <Show when={c.hint}>
        <p class="hint setting-hint" id={`${id}-hint`}>
          {c.hint}
        </p>
      </Show>
      <div class="setting-state">
        <Switch>
          <Match when={error()}>
            {(e) => (
              <span class="error" id={`${id}-state`}>
                {e()}
              </span>
            )}
          </Match>
          <Match when={mark()?.status === 'pending'}>
            <span class="badge badge-pending" id={`${id}-state`}>
              Not saved yet
            </span>
          </Match>
          <Match when={failed()}>
            {(m) => (
              <>
                <span class="error" id={`${id}-state`}>
                  Not saved: {m().message}
                  {m().others.length > 0 ? ` (together with ${m().others.map(settingLabel).join(', ')})` : ''}
                </span>
                <span class="setting-actions">
                  <Button size="small" disabled={busy()} aria-label={`Retry saving ${c.label}`} onClick={() => void act(() => outbox.retry(m().outboxId))}>
                    Retry
                  </Button>
                  <Button size="small" variant="quiet" disabled={busy()} aria-label={`Discard the change to ${c.label}`} onClick={() => void act(() => outbox.discard(m().outboxId))}>
                    Discard
                  </Button>
                </span>
              </>
            )}
          </Match>
        </Switch>
      </div>
    </div>
  );
}

/** Name, email and password: changed with the server at once (never queued). */
function AccountGroup(props: { bridge: Bridge }) {
  const status = useStatus();
  const users = useUsers();
  const me = () => (users.state.ownUserId === null ? undefined : users.byId().get(users.state.ownUserId));
  const offline = () => !status.isLive();
  return (
    <fieldset class="settings-group">
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
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [result, setResult] = createSignal<string | null>(null);
  const valueOf = (f: AccountFieldSpec) => edited()[f.key] ?? f.initial();
  const submit = (e: Event) => {
    e.preventDefault();
    setResult(null);
    const values = Object.fromEntries(props.fields.map((f) => [f.key, valueOf(f)]));
    const built = props.build(values);
    if (!built.ok) return setError(built.error);
    setError(null);
    setBusy(true);
    props.bridge.invoke('updateAccount', built.request).then(
      () => {
        setBusy(false);
        setResult(props.done(built.request));
        setEdited(props.clearAfter ? Object.fromEntries(props.fields.map((f) => [f.key, ''])) : {});
      },
      (err: unknown) => {
        setBusy(false);
        setError(isBridgeError(err) && err.code === 'OFFLINE' ? `This ${NEEDS_CONNECTION}; nothing was changed. Try again once the app is back online.` : errorText(err));
      },
    );
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
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={result()}>
        <p class="account-done" role="status">
          {result()}
        </p>
      </Show>
    </form>
  );
}

/** One online-only request at a time, and its answer: `okText`, or the server's words. */
function onlineRequest() {
  const [busy, setBusy] = createSignal(false);
  const [answer, setAnswer] = createSignal<{ ok: boolean; text: string } | null>(null);
  const run = (request: Promise<unknown>, okText: string) => {
    setBusy(true);
    setAnswer(null);
    request.then(
      () => setAnswer({ ok: true, text: okText }),
      (e: unknown) => setAnswer({ ok: false, text: errorText(e) }),
    ).finally(() => setBusy(false));
  };
  return { busy, answer, run };
}

function Answer(props: { answer: { ok: boolean; text: string } | null }) {
  return (
    <Show when={props.answer}>
      {(a) => (
        <p class={a().ok ? 'account-done' : 'error'} role={a().ok ? 'status' : 'alert'}>
          {a().text}
        </p>
      )}
    </Show>
  );
}

/** The E2EE test push notification (online only): the server's answer in its own words. */
function TestNotification(props: { bridge: Bridge }) {
  const status = useStatus();
  const { busy, answer, run } = onlineRequest();
  const send = () => run(props.bridge.invoke('sendTestNotification', {}), 'The server sent a test notification to your mobile devices.');
  return (
    <fieldset class="settings-group">
      <legend>Test notification</legend>
      <p class="hint" id="test-notification-hint">
        {status.isLive() ? 'Asks the server to send an end-to-end encrypted test notification to your registered mobile devices.' : `Sending a test notification ${NEEDS_CONNECTION}.`}
      </p>
      <div class="account-actions">
        <Button disabled={busy() || !status.isLive()} aria-describedby="test-notification-hint" onClick={send}>
          {busy() ? 'Sending…' : 'Send a test notification'}
        </Button>
      </div>
      <Answer answer={answer()} />
    </fieldset>
  );
}

/**
 * The deprecated APNs device-token registration (POST /users/me/apns_device_token), for someone
 * pairing an iOS build by hand: a desktop has no token of its own, so it is typed in. Online only;
 * the server's refusal (an empty, odd-length or non-hex token, a bad app id) in its own words.
 */
function ApnsToken(props: { bridge: Bridge }) {
  const status = useStatus();
  const [token, setToken] = createSignal('');
  const [appid, setAppid] = createSignal('');
  const { busy, answer, run } = onlineRequest();
  const register = (e: SubmitEvent) => {
    e.preventDefault();
    run(props.bridge.invoke('registerApnsToken', { token: token().trim(), appid: appid().trim() }), 'The server registered the device token.');
  };
  return (
    <form class="settings-group apns-form" aria-label="Apple push device" onSubmit={register}>
      <fieldset>
        <legend>Apple push device (deprecated)</legend>
        <p class="hint" id="apns-hint">
          {status.isLive() ? 'Registers an iOS device token for push notifications, as older Zulip mobile apps did.' : `Registering a device token ${NEEDS_CONNECTION}.`}
        </p>
        <label class="field">
          <span class="field-label">Device token</span>
          <input type="text" autocomplete="off" spellcheck={false} value={token()} onInput={(e) => setToken(e.currentTarget.value)} />
        </label>
        <label class="field">
          <span class="field-label">App ID</span>
          <input type="text" autocomplete="off" spellcheck={false} value={appid()} onInput={(e) => setAppid(e.currentTarget.value)} />
        </label>
        <div class="account-actions">
          <Button type="submit" disabled={busy() || !status.isLive() || token().trim() === '' || appid().trim() === ''} aria-describedby="apns-hint">
            {busy() ? 'Registering…' : 'Register device token'}
          </Button>
        </div>
        <Answer answer={answer()} />
      </fieldset>
    </form>
  );
}
