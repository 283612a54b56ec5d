/**
 * The delivery-time picker: a native `datetime-local` input read in the user's time zone, and
 * Zulip web's quick picks (in an hour, tomorrow morning, tomorrow afternoon).
 */
import { createUniqueId, For } from 'solid-js';
import { Button } from '../kit/Button.js';
import { quickPicks, unixToWallTime } from './schedule-time.js';

export function ScheduleFields(props: { value: string; onChange(value: string): void; timeZone: string | undefined; zoneLabel: string; disabled?: boolean }) {
  const id = createUniqueId();
  return (
    <div class="schedule-fields wrap-row">
      <label class="schedule-field" for={id}>
        <span class="schedule-label">Delivery time ({props.zoneLabel})</span>
        <input id={id} type="datetime-local" value={props.value} disabled={props.disabled} onInput={(e) => props.onChange(e.currentTarget.value)} />
      </label>
      <div class="schedule-picks" role="group" aria-label="Quick picks">
        <For each={quickPicks(Math.floor(Date.now() / 1000), props.timeZone)}>
          {(p) => (
            <Button size="small" disabled={props.disabled} onClick={() => props.onChange(unixToWallTime(p.seconds, props.timeZone))}>
              {p.label}
            </Button>
          )}
        </For>
      </div>
    </div>
  );
}

/** The zone's name for a label: the setting's, else the device's. */
export function zoneName(timeZone: string | undefined): string {
  return timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}
