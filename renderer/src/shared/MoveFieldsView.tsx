/**
 * The fields of a move, shared by the inline editor and the move dialogs: the channel (a select of
 * the subscribed channels), the topic, and, once something changes, which messages move and the
 * two automated notices, as Zulip's move form has them.
 */
import { createUniqueId, For, Show } from 'solid-js';
import { isPropagateMode, PROPAGATE_CHOICES, type MoveFields } from './move-form.js';
import { ChannelOptions } from './ChannelOptions.js';

export interface MoveFieldsViewProps {
  fields: MoveFields;
  onChange(patch: Partial<MoveFields>): void;
  channels: readonly { channel_id: number; name: string }[];
  /** Offer the channel select (moving between channels). */
  channel: boolean;
  topicLabel: string;
  channelLabel: string;
  /** Show which messages move and the notices. */
  options: boolean;
  disabled?: boolean;
  /** Escape in a field (the inline editor cancels with it). */
  onEscape?(): void;
}

export function MoveFieldsView(props: MoveFieldsViewProps) {
  const id = createUniqueId();
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && props.onEscape) {
      e.preventDefault();
      props.onEscape();
    }
  };
  const channelChoices = () => {
    const list = props.channels.map((c) => ({ id: c.channel_id, name: c.name }));
    // The current channel stays choosable even when it is not in the list (unsubscribed meanwhile).
    if (!list.some((c) => c.id === props.fields.fromChannelId)) list.unshift({ id: props.fields.fromChannelId, name: `channel ${props.fields.fromChannelId}` });
    return list;
  };
  return (
    <fieldset class="move-fields" disabled={props.disabled}>
      <div class="move-row">
        <Show when={props.channel}>
          <label class="field" for={`${id}-channel`}>
            <span class="field-label">{props.channelLabel}</span>
            <select id={`${id}-channel`} value={props.fields.channelId} onChange={(e) => props.onChange({ channelId: Number(e.currentTarget.value) })} onKeyDown={onKeyDown}>
              <ChannelOptions channels={channelChoices()} selected={props.fields.channelId} />
            </select>
          </label>
        </Show>
        <label class="field field-grow" for={`${id}-topic`}>
          <span class="field-label">{props.topicLabel}</span>
          <input id={`${id}-topic`} type="text" autocomplete="off" value={props.fields.topic} onInput={(e) => props.onChange({ topic: e.currentTarget.value })} onKeyDown={onKeyDown} />
        </label>
      </div>
      <Show when={props.options}>
        <label class="field" for={`${id}-propagate`}>
          <span class="field-label">Which messages should be moved?</span>
          <select
            id={`${id}-propagate`}
            value={props.fields.propagate}
            onChange={(e) => {
              const v = e.currentTarget.value;
              if (isPropagateMode(v)) props.onChange({ propagate: v });
            }}
            onKeyDown={onKeyDown}
          >
            <For each={PROPAGATE_CHOICES}>
              {(c) => (
                <option value={c.value} selected={c.value === props.fields.propagate}>
                  {c.label}
                </option>
              )}
            </For>
          </select>
        </label>
        <label class="check">
          <input type="checkbox" checked={props.fields.notifyNew} onChange={(e) => props.onChange({ notifyNew: e.currentTarget.checked })} />
          Send automated notice to new topic
        </label>
        <label class="check">
          <input type="checkbox" checked={props.fields.notifyOld} onChange={(e) => props.onChange({ notifyOld: e.currentTarget.checked })} />
          Send automated notice to old topic
        </label>
      </Show>
    </fieldset>
  );
}
