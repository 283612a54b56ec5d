/** The settings that are one request to the server (online only), each with the server's answer in its own words. */
import { createSignal, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useStatus } from '../data/status.js';
import { NEEDS_CONNECTION } from './needs-connection.js';

/** One online-only request at a time; its result is `okText`. */
const onlineRequest = () => useCommand((request: () => Promise<unknown>, okText: string) => request().then(() => okText));

function Answer(props: { request: ReturnType<typeof onlineRequest> }) {
  return (
    <>
      <Show when={props.request.result()}>
        {(text) => (
          <p class="account-done" role="status">
            {text()}
          </p>
        )}
      </Show>
      <ErrorText message={props.request.error()} />
    </>
  );
}

/** The E2EE test push notification (online only): the server's answer in its own words. */
export function TestNotification(props: { bridge: Bridge }) {
  const status = useStatus();
  const req = onlineRequest();
  const busy = req.busy;
  const send = () => void req.run(() => props.bridge.invoke('sendTestNotification', {}), 'The server sent a test notification to your mobile devices.');
  return (
    <fieldset class="screen-card settings-group">
      <legend>Test notification</legend>
      <p class="hint" id="test-notification-hint">
        {status.isLive() ? 'Asks the server to send an end-to-end encrypted test notification to your registered mobile devices.' : `Sending a test notification ${NEEDS_CONNECTION}.`}
      </p>
      <div class="account-actions">
        <Button disabled={busy() || !status.isLive()} aria-describedby="test-notification-hint" onClick={send}>
          {busy() ? 'Sending…' : 'Send a test notification'}
        </Button>
      </div>
      <Answer request={req} />
    </fieldset>
  );
}

/**
 * The deprecated APNs device-token registration (POST /users/me/apns_device_token), for someone
 * pairing an iOS build by hand: a desktop has no token of its own, so it is typed in. Online only;
 * the server's refusal (an empty, odd-length or non-hex token, a bad app id) in its own words.
 */
export function ApnsToken(props: { bridge: Bridge }) {
  const status = useStatus();
  const [token, setToken] = createSignal('');
  const [appid, setAppid] = createSignal('');
  const req = onlineRequest();
  const busy = req.busy;
  const register = (e: SubmitEvent) => {
    e.preventDefault();
    void req.run(() => props.bridge.invoke('registerApnsToken', { token: token().trim(), appid: appid().trim() }), 'The server registered the device token.');
  };
  return (
    <form class="screen-card settings-group apns-form" aria-label="Apple push device" onSubmit={register}>
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
        <Answer request={req} />
      </fieldset>
    </form>
  );
}
