/**
 * `#channels/...`: browse channels (subscribed, all, not subscribed; filter by name), subscribe and
 * unsubscribe (queued: shown at once with a "not saved yet" marker, a failed one with the server's
 * words and Retry / Discard), a channel's page (`#channels/ID/NAME`: its settings, its subscribers
 * from the server, adding subscribers), and creating a channel (`#channels/new`). Creating and
 * adding subscribers need a connection (online-only commands); their refusals show the server's words.
 */
import { createEffect, createMemo, createSignal, For, Match, Show, Switch } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useToasts } from '../kit/toasts.js';
import { MessageContent } from '../shared/MessageContent.js';
import { useOutbox } from '../data/outbox.js';
import { useUsers } from '../data/users.js';
import {
  addSubscribersSummary,
  channelNarrowHref,
  channelPageHref,
  channelsPage,
  listedChannels,
  pickablePeople,
  privacyLabel,
  retentionLabel,
  subscriptionMarker,
  subscriptionState,
  topicsPolicyLabel,
} from './channels-model.js';
import { CreateChannelForm } from './CreateChannelForm.js';
import { useAllChannels, useChannelSubscribers } from './store.js';
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
    <section class="narrow channels-view" aria-label="Channels">
      <header class="channels-header">
        <h1 class="channels-title">Channels</h1>
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
      <Show when={channels.error !== null && !channels.loaded}>
        <p class="error" role="alert">
          Could not load the channels. {channels.error}
        </p>
      </Show>
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

/** Subscribe / Unsubscribe for one channel, with its outbox state (not saved yet; failed: the server's words, Retry / Discard). */
function SubscribeControl(props: { bridge: Bridge; channel: ChannelListing }) {
  const outbox = useOutbox();
  const toasts = useToasts();
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [confirming, setConfirming] = createSignal(false);
  const state = createMemo(() => subscriptionState(outbox.state.rows, props.channel.name));
  const act = (f: () => Promise<unknown>) => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    f()
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };
  const subscribe = () => act(() => props.bridge.invoke('subscribe', { channels: [{ name: props.channel.name }] }));
  const unsubscribe = () => act(() => props.bridge.invoke('unsubscribe', { channels: [props.channel.name] }).then(() => setConfirming(false)));
  return (
    <div class="channel-subscription">
      <Show when={state()}>
        {(s) => (
          <Show
            when={s().status === 'failed'}
            fallback={
              <span class="badge badge-pending" title={s().action === 'subscribe' ? 'The subscription is queued and will be sent when the server is reachable.' : 'The unsubscribe is queued and will be sent when the server is reachable.'}>
                {subscriptionMarker(s())}
              </span>
            }
          >
            <div class="channel-failed" role="alert">
              <span class="badge badge-failed">{subscriptionMarker(s())}</span>
              <span class="channel-failed-reason">{s().error}</span>
              <Button size="small" disabled={busy()} aria-label={`Retry: ${s().action} ${props.channel.name}`} onClick={() => act(() => outbox.retry(s().outboxId))}>
                Retry
              </Button>
              <Button size="small" variant="quiet" disabled={busy()} aria-label={`Discard: ${s().action} ${props.channel.name}`} onClick={() => act(() => outbox.discard(s().outboxId).then(() => toasts.show('Change discarded.')))}>
                Discard
              </Button>
            </div>
          </Show>
        )}
      </Show>
      <Show
        when={props.channel.subscribed}
        fallback={
          <Show when={props.channel.can_subscribe} fallback={<span class="hint">You cannot subscribe yourself here.</span>}>
            <Button size="small" variant="primary" disabled={busy()} aria-label={`Subscribe to ${props.channel.name}`} onClick={subscribe}>
              Subscribe
            </Button>
          </Show>
        }
      >
        <Button size="small" disabled={busy()} aria-label={`Unsubscribe from ${props.channel.name}`} onClick={() => (props.channel.invite_only ? setConfirming(true) : unsubscribe())}>
          Unsubscribe
        </Button>
      </Show>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={confirming()}>
        <Dialog title="Unsubscribe from a private channel" onClose={() => setConfirming(false)}>
          <p>{`Unsubscribe from #${props.channel.name}? It is private: you may not be able to subscribe again without an invitation.`}</p>
          <DialogActions label="Unsubscribe" onAction={unsubscribe} danger disabled={busy()} onCancel={() => setConfirming(false)} />
        </Dialog>
      </Show>
    </div>
  );
}

function PrivacyBadge(props: { channel: ChannelListing }) {
  const label = () => privacyLabel(props.channel);
  return (
    <Show when={label() !== 'Public'}>
      <span class="badge badge-neutral channel-privacy">{label()}</span>
    </Show>
  );
}

function ChannelList(props: { bridge: Bridge; channels: readonly ChannelListing[]; loaded: boolean; tab: 'subscribed' | 'all' | 'notsubscribed' }) {
  const [query, setQuery] = createSignal('');
  const list = createMemo(() => listedChannels(props.channels, props.tab, query()));
  const title = () => (props.tab === 'subscribed' ? 'Subscribed channels' : props.tab === 'all' ? 'All channels' : 'Channels you are not subscribed to');
  return (
    <div class="channels-body">
      <input class="channels-filter" type="search" placeholder="Filter channels" aria-label="Filter channels" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
      <Show when={props.loaded} fallback={<EmptyState title="Loading…" role="status" />}>
        <Show
          when={list().length > 0}
          fallback={<EmptyState title={query().trim() !== '' ? 'No channel matches.' : props.tab === 'subscribed' ? 'You are not subscribed to any channel.' : 'No channels here.'} />}
        >
          <ul class="channels-list" aria-label={title()}>
            <For each={list()}>
              {(c) => (
                <li class="channel-row" aria-label={c.name} data-channel-id={c.channel_id}>
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
            </For>
          </ul>
        </Show>
      </Show>
    </div>
  );
}

function ChannelPage(props: { bridge: Bridge; channel: ChannelListing }) {
  const c = () => props.channel;
  const users = useUsers();
  const subscribers = useChannelSubscribers(props.bridge, props.channel.channel_id);
  const nameOf = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const people = createMemo(() =>
    (subscribers.state.data?.user_ids ?? [])
      .map((id) => ({ id, name: nameOf(id) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );
  return (
    <div class="channels-body channel-page">
      <p class="channel-back">
        <a href="#channels/all">All channels</a>
      </p>
      <div class="channel-line channel-page-title">
        <span class="channel-swatch" style={{ 'background-color': c().color ?? 'transparent' }} aria-hidden="true" />
        <h2 class="channel-heading">#{c().name}</h2>
        <PrivacyBadge channel={c()} />
        <a class="channel-open" href={channelNarrowHref(c())}>
          Open its messages
        </a>
      </div>
      <Show when={c().rendered_description !== ''}>
        <div class="channel-description">
          <MessageContent html={c().rendered_description} />
        </div>
      </Show>
      <SubscribeControl bridge={props.bridge} channel={c()} />
      <dl class="channel-facts" aria-label="Channel settings">
        <dt>Who can access it</dt>
        <dd>{c().invite_only ? 'Private: only subscribers see it' : c().is_web_public ? 'Web-public: anyone on the internet can read it' : 'Public: everyone in the organization'}</dd>
        <dt>History for new subscribers</dt>
        <dd>{c().history_public_to_subscribers ? 'They see the whole history' : 'They see messages from when they joined'}</dd>
        <dt>Messages are kept for</dt>
        <dd>{retentionLabel(c().message_retention_days)}</dd>
        <dt>Topics</dt>
        <dd>{topicsPolicyLabel(c().topics_policy)}</dd>
        <Show when={c().date_created !== null}>
          <dt>Created</dt>
          <dd>{new Date((c().date_created ?? 0) * 1000).toLocaleDateString()}</dd>
        </Show>
      </dl>
      <section class="channel-subscribers" aria-label="Subscribers">
        <h3 class="channel-subheading">
          Subscribers
          <Show when={subscribers.state.data}>{(d) => <span class="channel-count">{` (${d().user_ids.length})`}</span>}</Show>
        </h3>
        <Show when={subscribers.state.data} fallback={<p class="hint" role="status">{subscribers.state.error ?? 'Loading…'}</p>}>
          {(d) => (
            <>
              <Show when={d().source === 'cache'}>
                <p class="hint">The last list this device heard of; the server cannot be reached now.</p>
              </Show>
              <Show when={people().length > 0} fallback={<p class="hint">Nobody is subscribed.</p>}>
                <ul class="subscriber-list" aria-label={`Subscribers of ${c().name}`}>
                  <For each={people()}>{(p) => <li>{p.name}</li>}</For>
                </ul>
              </Show>
            </>
          )}
        </Show>
        <Show when={users.state.ownRole !== 600}>
          <AddSubscribers bridge={props.bridge} channel={c()} current={subscribers.state.data?.user_ids ?? []} onAdded={() => void subscribers.refresh()} />
        </Show>
      </section>
    </div>
  );
}

function AddSubscribers(props: { bridge: Bridge; channel: ChannelListing; current: readonly number[]; onAdded(): void }) {
  const users = useUsers();
  const [query, setQuery] = createSignal('');
  const [picked, setPicked] = createSignal<readonly number[]>([]);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [result, setResult] = createSignal<string[]>([]);
  const nameOf = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const candidates = createMemo(() => pickablePeople(users.state.users, new Set(props.current), query(), 30));
  // Someone picked then subscribed by another way leaves the selection.
  createEffect(() => {
    const now = new Set(props.current);
    if (picked().some((id) => now.has(id))) setPicked((p) => p.filter((id) => !now.has(id)));
  });
  const toggle = (id: number, on: boolean) => setPicked((p) => (on ? [...p, id] : p.filter((x) => x !== id)));
  const add = (e: Event) => {
    e.preventDefault();
    if (picked().length === 0) return setError('Pick someone to subscribe.');
    setBusy(true);
    setError(null);
    setResult([]);
    props.bridge.invoke('addSubscribers', { channel_ids: [props.channel.channel_id], user_ids: [...picked()] }).then(
      (r) => {
        setBusy(false);
        setPicked([]);
        setResult(addSubscribersSummary(r, nameOf));
        props.onAdded();
      },
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err));
      },
    );
  };
  return (
    <form class="add-subscribers" aria-label="Add subscribers" onSubmit={add}>
      <h3 class="channel-subheading">Add subscribers</h3>
      <Show when={!props.channel.can_add_subscribers}>
        <p class="hint">Your organization’s settings, as this device knows them, do not let you add subscribers to this channel; the server decides.</p>
      </Show>
      <input type="search" class="channels-filter" placeholder="Find people" aria-label="Find people to subscribe" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
      <Show when={candidates().length > 0} fallback={<p class="hint">Nobody else to subscribe{query().trim() !== '' ? ' by that name' : ''}.</p>}>
        <ul class="people-picker" aria-label="People to subscribe">
          <For each={candidates()}>
            {(u) => (
              <li>
                <label>
                  <input type="checkbox" checked={picked().includes(u.user_id)} disabled={busy()} onChange={(e) => toggle(u.user_id, e.currentTarget.checked)} />
                  {u.full_name}
                </label>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <div class="dialog-actions">
        <Button type="submit" variant="primary" disabled={busy() || picked().length === 0}>
          {picked().length > 1 ? `Subscribe ${picked().length} people` : 'Subscribe them'}
        </Button>
      </div>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={result().length > 0}>
        <ul class="add-result" role="status" aria-label="Subscribed">
          <For each={result()}>{(line) => <li>{line}</li>}</For>
        </ul>
      </Show>
    </form>
  );
}

