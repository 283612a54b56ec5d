/** Editing a scheduled message: its text, topic or channel, a direct message's people, and the time. */
import { createSignal, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import { useSettings } from '../data/settings.js';
import { RecipientPicker } from '../shared/RecipientPicker.js';
import { ChannelOptions } from '../shared/ChannelOptions.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { deliveryProblem, unixToWallTime, userTimeZone, wallTimeToUnix } from './schedule-time.js';
import { changedRecipients, dmPeople, FAILED_TEXT, isChannel, REFUSED_FOR_TIME_TEXT } from './scheduled-list.js';
import { ScheduleFields, zoneName } from './ScheduleFields.js';
import type { ScheduledMessage } from './store.js';

type Patch = {
  scheduled_message_id: number;
  content?: string;
  topic?: string;
  scheduled_delivery_timestamp?: number;
  recipient?: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
};

/** `newTime`: its create was refused because its time passed; the dialog asks for a new one. */
export function EditScheduledDialog(props: { bridge: Bridge; message: ScheduledMessage; where: string; newTime?: boolean; onClose(): void }) {
  const m = props.message;
  const settings = useSettings();
  const channels = useChannels();
  const users = useUsers();
  const toasts = useToasts();
  const zone = userTimeZone(settings.raw()?.timezone);
  const peopleBefore = isChannel(m) ? [] : dmPeople(m.to, users.state.ownUserId);
  const [people, setPeople] = createSignal<number[]>(peopleBefore);
  const channelOf = () => (typeof m.to === 'number' ? m.to : (m.to[0] ?? 0));
  const [content, setContent] = createSignal(m.content);
  const [topic, setTopic] = createSignal(m.topic ?? '');
  const [channelId, setChannelId] = createSignal(channelOf());
  // A failed message starts with an empty time: the server wants a new one.
  const needsTime = m.failed || props.newTime === true;
  const [when, setWhen] = createSignal(needsTime ? '' : unixToWallTime(m.scheduled_delivery_timestamp, zone));
  const edit = useCommand((patch: Patch) => props.bridge.invoke('updateScheduledMessage', patch));
  const busy = edit.busy;
  const setError = edit.fail;
  const save = (e: Event) => {
    e.preventDefault();
    const seconds = wallTimeToUnix(when(), zone);
    const timeChanged = seconds !== m.scheduled_delivery_timestamp;
    if (needsTime || timeChanged) {
      const why = deliveryProblem(seconds, Math.floor(Date.now() / 1000), needsTime ? m.scheduled_delivery_timestamp : undefined);
      if (why !== null) return setError(why);
    }
    if (content().trim() === '') return setError('A scheduled message needs some text.');
    if (!isChannel(m) && people().length === 0) return setError('Add at least one person.');
    const patch: Patch = { scheduled_message_id: m.scheduled_message_id };
    if (content() !== m.content) patch.content = content();
    const newPeople = isChannel(m) ? null : changedRecipients(peopleBefore, people());
    if (newPeople !== null) patch.recipient = { type: 'direct', user_ids: newPeople };
    if (isChannel(m) && channelId() !== channelOf()) patch.recipient = { type: 'channel', channel_id: channelId(), topic: topic().trim() };
    else if (isChannel(m) && topic().trim() !== (m.topic ?? '')) patch.topic = topic().trim();
    if (timeChanged && seconds !== null) patch.scheduled_delivery_timestamp = seconds;
    if (Object.keys(patch).length === 1) return props.onClose();
    void edit.run(patch).then((ok) => {
      if (!ok) return;
      toasts.show('Scheduled message changed.');
      props.onClose();
    });
  };

  return (
    <Dialog title={props.newTime === true ? 'Pick a new time' : 'Edit scheduled message'} class="schedule-dialog" onClose={props.onClose}>
      <form onSubmit={save}>
        <Show when={m.failed}>
          <p class="error">{FAILED_TEXT}</p>
        </Show>
        <Show when={props.newTime === true && !m.failed}>
          <p class="error">{REFUSED_FOR_TIME_TEXT}</p>
        </Show>
        <Show
          when={isChannel(m)}
          fallback={
            <div class="schedule-field">
              <span class="schedule-label">To</span>
              <RecipientPicker
                class="composer-to schedule-people"
                people={people()}
                onChange={(ids) => {
                  setPeople(ids);
                  setError(null);
                }}
              />
            </div>
          }
        >
          <div class="schedule-to wrap-row">
            <label class="schedule-field">
              <span class="schedule-label">Channel</span>
              <select value={String(channelId())} onChange={(e) => setChannelId(Number(e.currentTarget.value))} disabled={busy()}>
                <ChannelOptions channels={channels.state.channels.map((c) => ({ id: c.channel_id, name: c.name }))} selected={channelId()} />
              </select>
            </label>
            <label class="schedule-field schedule-grow">
              <span class="schedule-label">Topic</span>
              <input value={topic()} onInput={(e) => setTopic(e.currentTarget.value)} disabled={busy()} />
            </label>
          </div>
        </Show>
        <label class="schedule-field">
          <span class="schedule-label">Message</span>
          <textarea class="schedule-text" rows={4} value={content()} onInput={(e) => setContent(e.currentTarget.value)} disabled={busy()} />
        </label>
        <ScheduleFields value={when()} onChange={(v) => (setWhen(v), setError(null))} timeZone={zone} zoneLabel={zoneName(zone)} disabled={busy()} />
        <ErrorText message={edit.error()} />
        <DialogActions label="Save" disabled={busy()} onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}
