/** The composer's rows around its text: a new topic's channel and topic, and the tools under it. */
import { Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { topicLabel } from '../kit/format.js';
import { useChannels } from '../data/channels.js';
import { ChannelOptions } from '../shared/ChannelOptions.js';
import { Typeahead } from '../shared/Typeahead.js';
import { topicSuggestions } from '../shared/typeahead.js';
import { ScheduleButton } from '../scheduled/ScheduleButton.js';
import { SnippetsButton } from '../snippets/SnippetsButton.js';
import { sendHint } from './compose-reducer.js';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function TopicFields(props: {
  channelId: number | null;
  topic: string;
  topics: readonly string[];
  onChannel(id: number | null): void;
  onTopic(topic: string, picked: boolean): void;
  onKeyDown(e: KeyboardEvent): void;
  topicRef(el: HTMLInputElement): void;
}) {
  const channels = useChannels();
  return (
    <div class="composer-to">
      <select
        class="composer-channel"
        aria-label="Channel"
        value={props.channelId === null ? '' : String(props.channelId)}
        onChange={(e) => {
          const v = e.currentTarget.value;
          props.onChannel(v === '' ? null : Number(v));
        }}
        onKeyDown={(e) => props.onKeyDown(e)}
      >
        <Show when={props.channelId === null}>
          <option value="">Pick a channel</option>
        </Show>
        <ChannelOptions channels={channels.state.channels.map((c) => ({ id: c.channel_id, name: c.name }))} selected={props.channelId} />
      </select>
      <span class="composer-sep" aria-hidden="true">
        ›
      </span>
      <Typeahead
        class="composer-topic"
        label="Topic"
        placeholder="Topic"
        value={props.topic}
        ref={(el) => props.topicRef(el)}
        suggestions={topicSuggestions(props.topics, props.topic).map((t) => ({ key: t, label: topicLabel(t) }))}
        onInput={(v) => props.onTopic(v, false)}
        onPick={(s) => props.onTopic(s.key, true)}
        onKeyDown={(e) => props.onKeyDown(e)}
      />
    </div>
  );
}

export function ComposerTools(props: {
  preview: boolean;
  canSend: boolean;
  enterSends: boolean;
  onPreview(on: boolean): void;
  onSchedule(at: number): void;
  onSnippet(text: string): void;
  snippetsOpener(open: () => void): void;
  onCancel?: () => void;
  onEnterSends(on: boolean): void;
}) {
  return (
    <div class="composer-tools">
      <Button variant="quiet" size="small" aria-pressed={props.preview} onClick={() => props.onPreview(!props.preview)}>
        Preview
      </Button>
      <ScheduleButton disabled={!props.canSend} onSchedule={(at) => props.onSchedule(at)} />
      <SnippetsButton onInsert={(t) => props.onSnippet(t)} opener={(open) => props.snippetsOpener(open)} />
      <Show when={props.onCancel}>
        {(cancel) => (
          <Button variant="quiet" size="small" onClick={() => cancel()()}>
            Cancel
          </Button>
        )}
      </Show>
      <label class="composer-enter">
        <input type="checkbox" checked={props.enterSends} onChange={(e) => props.onEnterSends(e.currentTarget.checked)} />
        Enter sends
      </label>
      <span class="hint composer-hint">{props.preview ? 'Rendered on this device: the server’s rendering may differ.' : sendHint(props.enterSends, isMac())}</span>
    </div>
  );
}
