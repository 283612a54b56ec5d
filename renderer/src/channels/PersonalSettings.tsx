/**
 * A subscribed channel's personal settings on its page (Zulip web's "Personal" tab): mute, pin to
 * the top of the sidebar, its colour and the notification toggles. Each change is queued at once
 * (offline too) and shown by the engine's answer; the outbox panel lists what is not sent yet.
 */
import { For } from 'solid-js';
import type { ChannelListing, SubscriptionSettings } from '../../../sync/protocol/commands.js';
import { useActions } from '../actions/store.js';
import { useSettings } from '../data/settings.js';
import { colorInputValue, notificationOn, NOTIFICATION_TOGGLES } from './channel-settings.js';
import type { ChannelSettingChange } from '../data/channels-reducer.js';

export function PersonalSettings(props: { channel: ChannelListing; personal: SubscriptionSettings }) {
  const actions = useActions();
  const settings = useSettings();
  const set = (change: ChannelSettingChange) => actions.setChannelSetting(props.channel.channel_id, props.channel.name, change);
  const toggle = (label: string, checked: boolean, change: (on: boolean) => ChannelSettingChange) => (
    <label class="channel-setting">
      <input type="checkbox" checked={checked} onChange={(e) => set(change(e.currentTarget.checked))} />
      {label}
    </label>
  );
  return (
    <section class="channel-personal" aria-label="Personal settings">
      <h3 class="channel-subheading">Personal settings</h3>
      {toggle('Mute channel', props.personal.is_muted, (on) => ({ property: 'is_muted', value: on }))}
      {toggle('Pin channel to top', props.personal.pin_to_top, (on) => ({ property: 'pin_to_top', value: on }))}
      <label class="channel-setting">
        <input type="color" value={colorInputValue(props.channel.color)} onChange={(e) => set({ property: 'color', value: e.currentTarget.value })} />
        Channel colour
      </label>
      <fieldset class="channel-notifications">
        <legend>Notifications</legend>
        <For each={NOTIFICATION_TOGGLES}>{(t) => toggle(t.label, notificationOn(props.personal, t, settings.raw()), (on) => ({ property: t.property, value: on }))}</For>
      </fieldset>
    </section>
  );
}
