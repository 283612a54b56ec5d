/** A channel's page (`#channels/ID/NAME`): its settings, the user's own (subscribed), its subscribers from the server, adding subscribers. */
import { createMemo, For, Show } from 'solid-js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { MessageContent } from '../shared/MessageContent.js';
import { useUsers } from '../data/users.js';
import { channelNarrowHref, retentionLabel, topicsPolicyLabel } from './channels-model.js';
import { PrivacyBadge } from './ChannelList.js';
import { SubscribeControl } from './SubscribeControl.js';
import { PersonalSettings } from './PersonalSettings.js';
import { AddSubscribers } from './AddSubscribers.js';
import { useChannelSubscribers } from './store.js';
import { dateText } from '../kit/format.js';

export function ChannelPage(props: { bridge: Bridge; channel: ChannelListing }) {
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
      <Show when={c().subscribed && c().personal}>{(personal) => <PersonalSettings channel={c()} personal={personal()} />}</Show>
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
          <dd>{dateText(new Date((c().date_created ?? 0) * 1000), undefined, { year: 'numeric', month: 'numeric', day: 'numeric' })}</dd>
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
