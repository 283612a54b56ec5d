/**
 * `#channels/...`: browse channels (subscribed, all, not subscribed; filter by name), subscribe and
 * unsubscribe (queued: shown at once with a "not saved yet" marker, a failed one with the server's
 * words and Retry / Discard), a channel's page (`#channels/ID/NAME`: its settings, its subscribers
 * from the server, adding subscribers), and creating a channel (`#channels/new`). Creating and
 * adding subscribers need a connection (online-only commands); their refusals show the server's words.
 */
import { createMemo, For, Match, Show, Switch } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { EmptyState } from '../kit/EmptyState.js';
import { ErrorText } from '../kit/ErrorText.js';
import { channelsPage } from './channels-model.js';
import { CreateChannelForm } from './CreateChannelForm.js';
import { ChannelList } from './ChannelList.js';
import { ChannelPage } from './ChannelPage.js';
import { useAllChannels } from './store.js';
import './channels.css';

const TABS = [
  { tab: 'subscribed', label: 'Subscribed', href: '#channels/subscribed' },
  { tab: 'notsubscribed', label: 'Not subscribed', href: '#channels/notsubscribed' },
  { tab: 'all', label: 'All channels', href: '#channels/all' },
  { tab: 'new', label: 'Create a channel', href: '#channels/new' },
] as const;

export function ChannelsView(props: { rest: readonly string[]; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const channels = useAllChannels(bridge);
  const page = createMemo(() => channelsPage(props.rest));
  const current = () => {
    const p = page();
    return p.kind === 'list' ? p.tab : p.kind === 'new' ? 'new' : null;
  };
  return (
    <section class="narrow screen channels-view" aria-label="Channels">
      <header class="screen-header channels-header">
        <h1 class="screen-title channels-title">Channels</h1>
        <nav class="channels-tabs" aria-label="Channel lists">
          <For each={TABS}>
            {(t) => (
              <a class="channels-tab" href={t.href} aria-current={current() === t.tab ? 'page' : undefined}>
                {t.label}
              </a>
            )}
          </For>
        </nav>
      </header>
      <ErrorText message={channels.error !== null && !channels.loaded ? `Could not load the channels. ${channels.error}` : null} />
      <Switch>
        <Match when={page().kind === 'list' && page()}>
          {(p) => <ChannelList bridge={bridge} channels={channels.data} loaded={channels.loaded} tab={(p() as { tab: 'subscribed' | 'all' | 'notsubscribed' }).tab} />}
        </Match>
        <Match when={page().kind === 'new'}>
          <CreateChannelForm bridge={bridge} channels={channels.data} />
        </Match>
        <Match when={page().kind === 'channel' && page()}>
          {(p) => {
            const id = (p() as { channelId: number }).channelId;
            const channel = () => channels.data.find((c) => c.channel_id === id);
            return (
              <Show
                when={channel()}
                keyed
                fallback={<EmptyState title={channels.loaded ? 'No such channel here.' : 'Loading…'} role="status">{channels.loaded ? 'It may be private, archived, or not known to this device yet.' : undefined}</EmptyState>}
              >
                {(c) => <ChannelPage bridge={bridge} channel={c} />}
              </Show>
            );
          }}
        </Match>
        <Match when={page().kind === 'unknown'}>
          <EmptyState title="This part of the channels screen is not here." role="status">
            Pick a list above.
          </EmptyState>
        </Match>
      </Switch>
    </section>
  );
}
