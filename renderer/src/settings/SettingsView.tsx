/**
 * `#settings/...`: the user's personal settings, in Zulip's tabs (Account & privacy, Preferences,
 * Notifications; `#settings` alone opens the first), and the app's Network tab (proxy, certificates). Values are the engine's (`userSettings`, the
 * local value: a change shows at once, display ones on the page too). A setting change is queued
 * (`updateSettings`), so it works offline: the control says "Not saved yet" while its outbox row
 * waits, and a failed one shows the server's words with Retry and Discard. The name, the email and
 * the password need the server at once (`updateAccount`: a password never rests in the outbox), and
 * so does the test notification; offline they say so up front and are disabled.
 */
import { DeviceNotifications } from '../notifications/DeviceNotifications.js';
import { DesktopApp } from './DesktopApp.js';
import { NetworkSettings } from './NetworkSettings.js';
import { For, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { EmptyState } from '../kit/EmptyState.js';
import { groupsOf, SETTINGS_TABS, tabOf } from './settings-model.js';
import { useSettings } from '../data/settings.js';
import { SettingRow } from './SettingRow.js';
import { AccountGroup } from './AccountForms.js';
import { ApnsToken, TestNotification } from './OnlineRequests.js';
import './settings.css';

export function SettingsView(props: { rest: readonly string[]; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const settings = useSettings();
  const tab = () => tabOf(props.rest);
  return (
    <section class="narrow screen settings-view" aria-label="Personal settings">
      <header class="settings-header">
        <h1 class="screen-title settings-title">Personal settings</h1>
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
              <fieldset class="screen-card settings-group">
                <legend>{g.group}</legend>
                <For each={g.controls}>{(c) => <SettingRow control={c} bridge={bridge} />}</For>
              </fieldset>
            )}
          </For>
          <Show when={tab() === 'preferences'}>
            <DesktopApp />
          </Show>
          <Show when={tab() === 'network'}>
            <NetworkSettings bridge={bridge} />
          </Show>
          <Show when={tab() === 'notifications'}>
            <DeviceNotifications />
            <TestNotification bridge={bridge} />
            <ApnsToken bridge={bridge} />
          </Show>
        </div>
      </Show>
    </section>
  );
}
