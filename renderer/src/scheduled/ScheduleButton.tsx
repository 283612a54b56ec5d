/**
 * The composer's "Schedule" button: a dialog picking the delivery time; confirming hands the
 * time (UNIX seconds) to the composer, which queues `createScheduledMessage` and clears itself as
 * a send does. Works offline (the create is queued).
 */
import { createSignal, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { useSettings } from '../data/settings.js';
import { deliveryProblem, formatDelivery, unixToWallTime, userTimeZone, wallTimeToUnix } from './schedule-time.js';
import { ScheduleFields, zoneName } from './ScheduleFields.js';
import './scheduled.css';
import { ErrorText } from '../kit/ErrorText.js';

export function ScheduleButton(props: { disabled: boolean; onSchedule(seconds: number): void }) {
  const [open, setOpen] = createSignal(false);
  return (
    <>
      <Button variant="quiet" size="small" disabled={props.disabled} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Schedule
      </Button>
      <Show when={open()}>
        <ScheduleDialog
          onClose={() => setOpen(false)}
          onPick={(s) => {
            setOpen(false);
            props.onSchedule(s);
          }}
        />
      </Show>
    </>
  );
}

function ScheduleDialog(props: { onClose(): void; onPick(seconds: number): void }) {
  const settings = useSettings();
  const zone = () => userTimeZone(settings.raw()?.timezone);
  const [value, setValue] = createSignal(unixToWallTime(Math.ceil((Date.now() / 1000 + 3600) / 60) * 60, zone()));
  const [error, setError] = createSignal<string | null>(null);
  const seconds = () => wallTimeToUnix(value(), zone());
  const submit = (e: Event) => {
    e.preventDefault();
    const why = deliveryProblem(seconds(), Math.floor(Date.now() / 1000));
    if (why !== null) return setError(why);
    props.onPick(seconds() ?? 0);
  };
  return (
    <Dialog title="Schedule message" class="schedule-dialog" onClose={props.onClose}>
      <form onSubmit={submit}>
        <ScheduleFields value={value()} onChange={(v) => (setValue(v), setError(null))} timeZone={zone()} zoneLabel={zoneName(zone())} />
        <Show when={seconds()}>{(s) => <p class="hint">The server sends it {formatDelivery(s(), zone(), settings.display().twentyFourHour)}. Scheduled offline, it reaches the server once the app is back online.</p>}</Show>
        <ErrorText message={error()} />
        <DialogActions label="Schedule message" onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}
