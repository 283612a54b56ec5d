/** A list of channels (subscribed, not subscribed, all), filtered by name, each with Subscribe / Unsubscribe. */
import { createMemo, createSignal, Show } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { EmptyState } from '../kit/EmptyState.js';
import { ListView } from '../kit/ListView.js';
import { MessageContent } from '../shared/MessageContent.js';
import { channelPageHref, listedChannels, privacyLabel } from './channels-model.js';
import { SubscribeControl } from './SubscribeControl.js';

export function PrivacyBadge(props: { channel: ChannelListing }) {
  const label = () => privacyLabel(props.channel);
  return (
    <Show when={label() !== 'Public'}>
      <span class="badge badge-neutral channel-privacy">{label()}</span>
    </Show>
  );
}

export function ChannelList(props: { bridge: Bridge; channels: readonly ChannelListing[]; loaded: boolean; tab: 'subscribed' | 'all' | 'notsubscribed' }) {
  const [query, setQuery] = createSignal('');
  const list = createMemo(() => listedChannels(props.channels, props.tab, query()));
  const title = () => (props.tab === 'subscribed' ? 'Subscribed channels' : props.tab === 'all' ? 'All channels' : 'Channels you are not subscribed to');
  return (
    <div class="channels-body">
      <input class="channels-filter" type="search" placeholder="Filter channels" aria-label="Filter channels" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
      <ListView
        items={list()}
        loaded={props.loaded}
        loading={<EmptyState title="Loading…" role="status" />}
        empty={<EmptyState title={query().trim() !== '' ? 'No channel matches.' : props.tab === 'subscribed' ? 'You are not subscribed to any channel.' : 'No channels here.'} />}
        class="screen-list channels-list"
        label={title()}
      >
        {(c) => (
          <li class="screen-card channel-row" aria-label={c.name} data-channel-id={c.channel_id}>
            <span class="channel-swatch" style={{ 'background-color': c.color ?? 'transparent' }} aria-hidden="true" />
            <div class="channel-main">
              <div class="channel-line">
                <a class="channel-name" href={channelPageHref(c)}>
                  #{c.name}
                </a>
                <PrivacyBadge channel={c} />
                <Show when={c.subscriber_count !== null}>
                  <span class="channel-count">{c.subscriber_count === 1 ? '1 subscriber' : `${c.subscriber_count ?? 0} subscribers`}</span>
                </Show>
              </div>
              <Show when={c.rendered_description !== ''}>
                <div class="channel-description">
                  <MessageContent html={c.rendered_description} />
                </div>
              </Show>
            </div>
            <SubscribeControl bridge={props.bridge} channel={c} />
          </li>
        )}
      </ListView>
    </div>
  );
}
