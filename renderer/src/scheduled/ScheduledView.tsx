/**
 * `#scheduled`: the user's scheduled messages, by delivery time (in their time zone and hour
 * format). Each shows where it goes, when, its text, and a marker while a change to it is not on
 * the server yet (its outbox rows); a message the server could not send at its time is marked
 * failed, as Zulip web does. Edit changes the text, the topic or channel, a direct message's
 * recipients (the composer's picker), and the time (a failed one only together with a new time, as
 * PATCH /scheduled_messages requires); Delete asks first. Send now (failed ones too) asks first and
 * sends it as a message, as Zulip web's "edit, then Send" does (unscheduled, then sent).
 * Every change is queued, so all of it works offline.
 */
import { createMemo, createSignal, For, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useToasts } from '../kit/toasts.js';
import { MessageContent } from '../shared/MessageContent.js';
import { topicLabel } from '../kit/format.js';
import { useOutbox } from '../data/outbox.js';
import { useSettings } from '../data/settings.js';
import { RecipientPicker } from '../shared/RecipientPicker.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { deliveryProblem, formatDelivery, unixToWallTime, userTimeZone, wallTimeToUnix } from './schedule-time.js';
import { changedRecipients, dmPeople, FAILED_TEXT, pendingError, pendingLabel, pendingRowsFor, sendingNow, sortByDelivery } from './scheduled-list.js';
import { ScheduleFields, zoneName } from './ScheduleFields.js';
import { useScheduledMessages, type ScheduledMessage } from './store.js';
import './scheduled.css';

const isChannel = (m: ScheduledMessage) => m.type === 'stream' || m.type === 'channel';

export function ScheduledView(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const state = useScheduledMessages(bridge);
  const settings = useSettings();
  const outbox = useOutbox();
  const channels = useChannels();
  const users = useUsers();
  const [editing, setEditing] = createSignal<ScheduledMessage | null>(null);
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
    <section class="narrow scheduled-view" aria-label="Scheduled messages">
      <header class="scheduled-header">
        <h1 class="scheduled-title">Scheduled messages</h1>
        <p class="hint">Times are in {zoneName(zone())}.</p>
      </header>
      <Show when={state.error !== null && !state.loaded}>
        <p class="error" role="alert">
          Could not load the scheduled messages. {state.error}
        </p>
      </Show>
      <Show when={state.loaded} fallback={<EmptyState title="Loading…" role="status" />}>
        <Show when={list().length > 0} fallback={<EmptyState title="No scheduled messages.">Schedule one from the composer: write it, then pick Schedule.</EmptyState>}>
          <ul class="scheduled-list" aria-label="Scheduled messages list">
            <For each={list()}>
              {(m) => {
                const rows = () => pendingRowsFor(outbox.state.rows, 'scheduled_message', m.scheduled_message_id);
                return (
                  <li class="scheduled-item" classList={{ failed: m.failed }} data-scheduled-id={m.scheduled_message_id} aria-label={`Scheduled: ${where(m)}`}>
                    <div class="scheduled-meta">
                      <span class="scheduled-where">{where(m)}</span>
                      <time class="scheduled-time" datetime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>
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
                    <Show when={pendingError(rows())}>{(e) => <p class="error">{e()}</p>}</Show>
                    <div class="scheduled-content">
                      <MessageContent html={m.rendered_content} />
                    </div>
                    <Show when={!sendingNow(rows())}>
                      <div class="scheduled-actions">
                        <Button size="small" aria-label={`Send now: scheduled message to ${where(m)}`} onClick={() => setSending(m)}>
                          Send now
                        </Button>
                        <Button size="small" aria-label={`Edit scheduled message to ${where(m)}`} onClick={() => setEditing(m)}>
                          Edit
                        </Button>
                        <Button size="small" variant="quiet" aria-label={`Delete scheduled message to ${where(m)}`} onClick={() => setDeleting(m)}>
                          Delete
                        </Button>
                      </div>
                    </Show>
                  </li>
                );
              }}
            </For>
          </ul>
        </Show>
      </Show>
      <Show when={editing()}>{(m) => <EditScheduledDialog bridge={bridge} message={m()} where={where(m())} onClose={() => setEditing(null)} />}</Show>
      <Show when={deleting()}>
        {(m) => (
          <ConfirmScheduledDialog
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
          <ConfirmScheduledDialog
            title="Send scheduled message now"
            class="send-now-dialog"
            question={`Send the message scheduled for ${where(m())} now? It will no longer be scheduled.`}
            preview={m().rendered_content}
            action="Send now"
            done="Sending the message now."
            run={() => bridge.invoke('sendScheduledMessageNow', { scheduled_message_id: m().scheduled_message_id })}
            onClose={() => setSending(null)}
          />
        )}
      </Show>
    </section>
  );
}

function EditScheduledDialog(props: { bridge: Bridge; message: ScheduledMessage; where: string; onClose(): void }) {
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
  const [when, setWhen] = createSignal(m.failed ? '' : unixToWallTime(m.scheduled_delivery_timestamp, zone));
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const save = (e: Event) => {
    e.preventDefault();
    const seconds = wallTimeToUnix(when(), zone);
    const timeChanged = seconds !== m.scheduled_delivery_timestamp;
    if (m.failed || timeChanged) {
      const why = deliveryProblem(seconds, Math.floor(Date.now() / 1000), m.failed ? m.scheduled_delivery_timestamp : undefined);
      if (why !== null) return setError(why);
    }
    if (content().trim() === '') return setError('A scheduled message needs some text.');
    if (!isChannel(m) && people().length === 0) return setError('Add at least one person.');
    const patch: {
      scheduled_message_id: number;
      content?: string;
      topic?: string;
      scheduled_delivery_timestamp?: number;
      recipient?: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
    } = {
      scheduled_message_id: m.scheduled_message_id,
    };
    if (content() !== m.content) patch.content = content();
    const newPeople = isChannel(m) ? null : changedRecipients(peopleBefore, people());
    if (newPeople !== null) patch.recipient = { type: 'direct', user_ids: newPeople };
    if (isChannel(m) && channelId() !== channelOf()) patch.recipient = { type: 'channel', channel_id: channelId(), topic: topic().trim() };
    else if (isChannel(m) && topic().trim() !== (m.topic ?? '')) patch.topic = topic().trim();
    if (timeChanged && seconds !== null) patch.scheduled_delivery_timestamp = seconds;
    if (Object.keys(patch).length === 1) return props.onClose();
    setBusy(true);
    props.bridge.invoke('editScheduledMessage', patch).then(
      () => {
        toasts.show('Scheduled message changed.');
        props.onClose();
      },
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err));
      },
    );
  };

  return (
    <Dialog title="Edit scheduled message" class="schedule-dialog" onClose={props.onClose}>
      <form onSubmit={save}>
        <Show when={m.failed}>
          <p class="error">{FAILED_TEXT}</p>
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
          <div class="schedule-to">
            <label class="schedule-field">
              <span class="schedule-label">Channel</span>
              <select value={String(channelId())} onChange={(e) => setChannelId(Number(e.currentTarget.value))} disabled={busy()}>
                <For each={channels.state.channels}>{(c) => <option value={String(c.channel_id)}>{c.name}</option>}</For>
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
        <Show when={error()}>
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
        <DialogActions label="Save" disabled={busy()} onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}

/** Asks before an action on one scheduled message (delete it, send it now); its error in words. */
function ConfirmScheduledDialog(props: {
  title: string;
  class: string;
  question: string;
  preview?: string;
  action: string;
  danger?: boolean;
  done: string;
  run(): Promise<unknown>;
  onClose(): void;
}) {
  const toasts = useToasts();
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const go = () => {
    setBusy(true);
    props.run().then(
      () => {
        toasts.show(props.done);
        props.onClose();
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorText(e));
      },
    );
  };
  return (
    <Dialog title={props.title} class={props.class} onClose={props.onClose}>
      <p>{props.question}</p>
      <Show when={props.preview}>
        {(html) => (
          <div class="scheduled-content">
            <MessageContent html={html()} />
          </div>
        )}
      </Show>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <DialogActions label={props.action} onAction={go} danger={props.danger} disabled={busy()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
