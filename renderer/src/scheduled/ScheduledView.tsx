/**
 * `#scheduled`: the user's scheduled messages, by delivery time (in their time zone and hour
 * format). Each shows where it goes, when, its text, and a marker while a change to it is not on
 * the server yet (its outbox rows); a message the server could not send at its time is marked
 * failed, as Zulip web does. Edit changes the text, the topic or channel, a direct message's
 * recipients (the composer's picker), and the time (a failed one only together with a new time, as
 * PATCH /scheduled_messages requires); Delete asks first. Send now (failed ones too) asks first and
 * sends it as a message, as Zulip web's "edit, then Send" does (unscheduled, then sent).
 * One scheduled offline whose time passed before the server saw it was never scheduled: it says
 * so and offers Send now and "Pick a new time" (Edit starting from an empty time).
 * Every change is queued, so all of it works offline.
 */
import { createMemo, createSignal, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ConfirmDialog } from '../kit/ConfirmDialog.js';
import { EmptyState } from '../kit/EmptyState.js';
import { ListView } from '../kit/ListView.js';
import { ErrorText } from '../kit/ErrorText.js';
import { MessageContent } from '../shared/MessageContent.js';
import { topicLabel } from '../kit/format.js';
import { useOutbox } from '../data/outbox.js';
import { useSettings } from '../data/settings.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { formatDelivery, userTimeZone } from './schedule-time.js';
import { FAILED_TEXT, isChannel, pendingError, pendingLabel, pendingRowsFor, REFUSED_FOR_TIME_TEXT, refusedForTime, sendingNow, sortByDelivery } from './scheduled-list.js';
import { zoneName } from './ScheduleFields.js';
import { EditScheduledDialog } from './EditScheduledDialog.js';
import { useScheduledMessages, type ScheduledMessage } from './store.js';
import './scheduled.css';

export function ScheduledView(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const state = useScheduledMessages(bridge);
  const settings = useSettings();
  const outbox = useOutbox();
  const channels = useChannels();
  const users = useUsers();
  const [editing, setEditing] = createSignal<{ message: ScheduledMessage; newTime: boolean } | null>(null);
  const [deleting, setDeleting] = createSignal<ScheduledMessage | null>(null);
  const [sending, setSending] = createSignal<ScheduledMessage | null>(null);
  const zone = () => userTimeZone(settings.raw()?.timezone);
  const list = createMemo(() => sortByDelivery(state.data));

  const where = (m: ScheduledMessage): string => {
    if (isChannel(m)) {
      const id = typeof m.to === 'number' ? m.to : (m.to[0] ?? 0);
      return `#${channels.byId(id)?.name ?? `channel ${id}`} › ${topicLabel(m.topic ?? '')}`;
    }
    const ids = Array.isArray(m.to) ? m.to : [m.to];
    const others = ids.filter((id) => id !== users.state.ownUserId);
    return `Direct message to ${(others.length === 0 ? ids : others).map((id) => users.byId().get(id)?.full_name ?? `user ${id}`).join(', ')}`;
  };

  return (
    <section class="narrow screen scheduled-view" aria-label="Scheduled messages">
      <header class="screen-header scheduled-header">
        <h1 class="screen-title scheduled-title">Scheduled messages</h1>
        <p class="hint">Times are in {zoneName(zone())}.</p>
      </header>
      <ErrorText message={state.error !== null && !state.loaded ? `Could not load the scheduled messages. ${state.error}` : null} />
      <ListView
        items={list()}
        loaded={state.loaded}
        loading={<EmptyState title="Loading…" role="status" />}
        empty={<EmptyState title="No scheduled messages.">Schedule one from the composer: write it, then pick Schedule.</EmptyState>}
        class="screen-list scheduled-list"
        label="Scheduled messages list"
      >
        {(m) => {
          const rows = () => pendingRowsFor(outbox.state.rows, 'scheduled_message', m.scheduled_message_id);
          return (
            <li class="screen-card scheduled-item" classList={{ failed: m.failed }} data-scheduled-id={m.scheduled_message_id} aria-label={`Scheduled: ${where(m)}`}>
              <div class="card-meta">
                <span class="card-where">{where(m)}</span>
                <time class="card-time" datetime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>
                  {formatDelivery(m.scheduled_delivery_timestamp, zone(), settings.display().twentyFourHour)}
                </time>
                <Show when={pendingLabel(rows())}>{(l) => <span class={l() === 'change failed' ? 'badge badge-failed' : 'badge badge-pending'}>{l()}</span>}</Show>
                <Show when={m.failed}>
                  <span class="badge badge-failed">failed</span>
                </Show>
              </div>
              <Show when={m.failed}>
                <p class="error scheduled-failed">{FAILED_TEXT}</p>
              </Show>
              <Show when={refusedForTime(rows())} fallback={<Show when={pendingError(rows())}>{(e) => <p class="error">{e()}</p>}</Show>}>
                <p class="error scheduled-refused">{REFUSED_FOR_TIME_TEXT}</p>
              </Show>
              <div class="card-body">
                <MessageContent html={m.rendered_content} />
              </div>
              <Show when={!sendingNow(rows()) || refusedForTime(rows())}>
                <div class="card-actions">
                  <Button size="small" aria-label={`Send now: scheduled message to ${where(m)}`} onClick={() => setSending(m)}>
                    Send now
                  </Button>
                  <Show
                    when={refusedForTime(rows())}
                    fallback={
                      <Button size="small" aria-label={`Edit scheduled message to ${where(m)}`} onClick={() => setEditing({ message: m, newTime: false })}>
                        Edit
                      </Button>
                    }
                  >
                    <Button size="small" aria-label={`Pick a new time: scheduled message to ${where(m)}`} onClick={() => setEditing({ message: m, newTime: true })}>
                      Pick a new time
                    </Button>
                  </Show>
                  <Button size="small" variant="quiet" aria-label={`Delete scheduled message to ${where(m)}`} onClick={() => setDeleting(m)}>
                    Delete
                  </Button>
                </div>
              </Show>
            </li>
          );
        }}
      </ListView>
      <Show when={editing()}>{(e) => <EditScheduledDialog bridge={bridge} message={e().message} where={where(e().message)} newTime={e().newTime} onClose={() => setEditing(null)} />}</Show>
      <Show when={deleting()}>
        {(m) => (
          <ConfirmDialog
            title="Delete scheduled message"
            class="delete-dialog"
            question={`Delete the message scheduled for ${where(m())}? It will not be sent.`}
            action="Delete"
            danger
            done="Scheduled message deleted."
            run={() => bridge.invoke('deleteScheduledMessage', { scheduled_message_id: m().scheduled_message_id })}
            onClose={() => setDeleting(null)}
          />
        )}
      </Show>
      <Show when={sending()}>
        {(m) => (
          <ConfirmDialog
            title="Send scheduled message now"
            class="send-now-dialog"
            question={`Send the message scheduled for ${where(m())} now? It will no longer be scheduled.`}
            action="Send now"
            done="Sending the message now."
            run={() => bridge.invoke('sendScheduledMessageNow', { scheduled_message_id: m().scheduled_message_id })}
            onClose={() => setSending(null)}
          >
            <div class="card-body">
              <MessageContent html={m().rendered_content} />
            </div>
          </ConfirmDialog>
        )}
      </Show>
    </section>
  );
}
