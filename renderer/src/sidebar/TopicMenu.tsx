/**
 * The menus of a topic (in the sidebar and in the topic's header) and of a channel (in the
 * sidebar), as Zulip's: for a topic its visibility (Mute, Default, Unmute in a muted channel,
 * Follow), mark as read, copy its link, resolve / unresolve, rename, move to another channel and,
 * for administrators, delete (which needs a connection: offline the item says so and is not
 * choosable); for a channel, pin / unpin and mute / unmute it and pick its colour (queued like every
 * change), open its settings page (any colour, notifications), mark it all as read and copy its link. The sidebar
 * follows at once.
 */
import { For, Show } from 'solid-js';
import { Menu, MenuGroup, MenuItem, MenuSeparator } from '../kit/Menu.js';
import { MoreIcon } from '../kit/icons.js';
import { topicLabel } from '../kit/format.js';
import { hashOfTarget } from '../data/target.js';
import { useStatus } from '../data/status.js';
import { useUsers } from '../data/users.js';
import { useActions } from '../actions/store.js';
import { checkedPolicy, topicMenuModel, visibilityChoices } from '../actions/topic-actions.js';
import { useRouter } from '../router/router.js';
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { channelPageHref } from '../channels/channels-model.js';
import { CHANNEL_COLORS } from '../channels/channel-settings.js';
import type { ChannelSettingChange } from '../data/channels-reducer.js';

export interface TopicMenuProps {
  channelId: number;
  channelName: string;
  channelMuted: boolean;
  topic: string;
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  visibility: number;
  /** The newest message known in the topic (resolving and moving name one of its messages). */
  messageId: number | null;
  class?: string;
}

export function TopicMenu(props: TopicMenuProps) {
  const actions = useActions();
  const users = useUsers();
  const status = useStatus();
  const model = () => topicMenuModel(props.topic, users.state.ownRole, status.isLive());
  const checked = () => checkedPolicy(props.visibility, props.channelMuted);
  const ref = () => (props.messageId === null ? null : { channelId: props.channelId, topic: props.topic, messageId: props.messageId });
  return (
    <Menu label={`Actions for topic ${topicLabel(props.topic)}`} button={<MoreIcon />} buttonClass={`row-menu ${props.class ?? ''}`}>
      <MenuGroup label="Notifications">
        <For each={visibilityChoices(props.channelMuted)}>
          {(c) => (
            <MenuItem checked={checked() === c.policy} onSelect={() => actions.setVisibility(props.channelId, props.topic, c.policy)}>
              {c.label}
            </MenuItem>
          )}
        </For>
      </MenuGroup>
      <MenuSeparator />
      <MenuItem onSelect={() => actions.markTopicRead(props.channelId, props.topic)}>Mark topic as read</MenuItem>
      <MenuItem onSelect={() => actions.copyLink(hashOfTarget({ kind: 'topic', channelId: props.channelId, channelName: props.channelName, topic: props.topic }), 'the topic')}>Copy link to topic</MenuItem>
      <Show when={ref()}>
        {(t) => (
          <>
            <Show when={model().resolve}>
              {(r) => <MenuItem onSelect={() => actions.resolveTopic(t(), r() === 'resolve')}>{r() === 'resolve' ? 'Mark as resolved' : 'Mark as unresolved'}</MenuItem>}
            </Show>
            <Show when={model().move}>
              <MenuItem onSelect={() => actions.open({ kind: 'move-topic', mode: 'rename', channelId: props.channelId, topic: props.topic, messageId: t().messageId })}>Rename topic…</MenuItem>
              <MenuItem onSelect={() => actions.open({ kind: 'move-topic', mode: 'move', channelId: props.channelId, topic: props.topic, messageId: t().messageId })}>Move topic…</MenuItem>
            </Show>
          </>
        )}
      </Show>
      <Show when={model().delete}>
        {(d) => (
          <>
            <MenuSeparator />
            <MenuItem class="menu-danger" disabled={!d().enabled} onSelect={() => actions.open({ kind: 'delete-topic', channelId: props.channelId, topic: props.topic })}>
              {d().enabled ? 'Delete topic…' : 'Delete topic (needs a connection)'}
            </MenuItem>
          </>
        )}
      </Show>
    </Menu>
  );
}

export function ChannelMenu(props: { channel: Pick<ChannelSummary, 'channel_id' | 'name' | 'is_muted' | 'pin_to_top' | 'color'>; class?: string }) {
  const actions = useActions();
  const router = useRouter();
  const c = () => props.channel;
  const set = (change: ChannelSettingChange) => actions.setChannelSetting(c().channel_id, c().name, change);
  return (
    <Menu label={`Actions for channel ${c().name}`} button={<MoreIcon />} buttonClass={`row-menu ${props.class ?? ''}`}>
      <MenuItem onSelect={() => set({ property: 'pin_to_top', value: !c().pin_to_top })}>{c().pin_to_top ? 'Unpin channel from top' : 'Pin channel to top'}</MenuItem>
      <MenuItem onSelect={() => set({ property: 'is_muted', value: !c().is_muted })}>{c().is_muted ? 'Unmute channel' : 'Mute channel'}</MenuItem>
      <MenuGroup label="Colour">
        <div class="menu-swatches">
          <For each={CHANNEL_COLORS}>
            {(k) => (
              <MenuItem class="menu-swatch-item" checked={c().color?.toLowerCase() === k.color} onSelect={() => set({ property: 'color', value: k.color })}>
                <span class="menu-swatch" style={{ 'background-color': k.color }} aria-hidden="true" />
                <span class="visually-hidden">{`Colour ${k.name}`}</span>
              </MenuItem>
            )}
          </For>
        </div>
      </MenuGroup>
      <MenuItem onSelect={() => router.navigate(channelPageHref({ channel_id: c().channel_id, name: c().name }))}>Channel settings (colour, notifications)</MenuItem>
      <MenuSeparator />
      <MenuItem onSelect={() => actions.markChannelRead(c().channel_id, c().name)}>Mark all messages as read</MenuItem>
      <MenuItem onSelect={() => actions.copyLink(hashOfTarget({ kind: 'channel', channelId: c().channel_id, channelName: c().name }), 'the channel')}>Copy link to channel</MenuItem>
    </Menu>
  );
}
