/**
 * The Notifications tab's "On this device" group: the permission to show desktop notifications
 * (asked for by a click, as browsers require) and Do Not Disturb, which silences them here only.
 */
import { Match, Switch } from 'solid-js';
import { Button } from '../kit/Button.js';
import { notificationPrefs } from './notifier.js';

export function DeviceNotifications() {
  return (
    <fieldset class="screen-card settings-group">
      <legend>On this device</legend>
      <Switch>
        <Match when={notificationPrefs.permission() === 'granted'}>
          <p class="hint">Desktop notifications are allowed here: direct messages, mentions and followed topics notify while the app is in the background, as the settings above say.</p>
        </Match>
        <Match when={notificationPrefs.permission() === 'default'}>
          <p class="hint">This app may not show desktop notifications yet.</p>
          <Button onClick={() => void notificationPrefs.requestPermission()}>Allow desktop notifications</Button>
        </Match>
        <Match when={notificationPrefs.permission() === 'denied'}>
          <p class="hint">Desktop notifications are blocked for this app. Allow them in the browser's or the system's settings.</p>
        </Match>
        <Match when={notificationPrefs.permission() === 'unsupported'}>
          <p class="hint">This browser cannot show desktop notifications.</p>
        </Match>
      </Switch>
      <div class="setting-row setting-check">
        <input id="do-not-disturb" type="checkbox" checked={notificationPrefs.doNotDisturb()} onChange={(e) => notificationPrefs.setDoNotDisturb(e.currentTarget.checked)} />
        <label class="setting-label" for="do-not-disturb">
          Do not disturb (no desktop notifications on this device)
        </label>
      </div>
    </fieldset>
  );
}
