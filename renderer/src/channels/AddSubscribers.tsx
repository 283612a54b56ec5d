/** Subscribing other people to a channel (online only: `addSubscribers`); the server's answer in words. */
import { createEffect, createMemo, createSignal, For, Show } from 'solid-js';
import { PeopleChecklist } from './PeopleChecklist.js';
import type { ChannelListing } from '../../../sync/protocol/commands.js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useUsers } from '../data/users.js';
import { addSubscribersSummary, pickablePeople } from './channels-model.js';

export function AddSubscribers(props: { bridge: Bridge; channel: ChannelListing; current: readonly number[]; onAdded(): void }) {
  const users = useUsers();
  const [query, setQuery] = createSignal('');
  const [picked, setPicked] = createSignal<readonly number[]>([]);
  const nameOf = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const command = useCommand(async (ids: number[]) => addSubscribersSummary(await props.bridge.invoke('addSubscribers', { channel_ids: [props.channel.channel_id], user_ids: ids }), nameOf));
  const busy = command.busy;
  const result = () => command.result() ?? [];
  const candidates = createMemo(() => pickablePeople(users.state.users, new Set(props.current), query(), 30));
  // Someone picked then subscribed by another way leaves the selection.
  createEffect(() => {
    const now = new Set(props.current);
    if (picked().some((id) => now.has(id))) setPicked((p) => p.filter((id) => !now.has(id)));
  });
  const toggle = (id: number, on: boolean) => setPicked((p) => (on ? [...p, id] : p.filter((x) => x !== id)));
  const add = (e: Event) => {
    e.preventDefault();
    if (picked().length === 0) return command.fail('Pick someone to subscribe.');
    void command.run([...picked()]).then((ok) => {
      if (!ok) return;
      setPicked([]);
      props.onAdded();
    });
  };
  return (
    <form class="add-subscribers" aria-label="Add subscribers" onSubmit={add}>
      <h3 class="channel-subheading">Add subscribers</h3>
      <Show when={!props.channel.can_add_subscribers}>
        <p class="hint">Your organization’s settings, as this device knows them, do not let you add subscribers to this channel; the server decides.</p>
      </Show>
      <input type="search" class="channels-filter" placeholder="Find people" aria-label="Find people to subscribe" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
      <Show when={candidates().length > 0} fallback={<p class="hint">Nobody else to subscribe{query().trim() !== '' ? ' by that name' : ''}.</p>}>
        <PeopleChecklist people={candidates()} picked={picked()} disabled={busy()} onToggle={toggle} />
      </Show>
      <div class="dialog-actions">
        <Button type="submit" variant="primary" disabled={busy() || picked().length === 0}>
          {picked().length > 1 ? `Subscribe ${picked().length} people` : 'Subscribe them'}
        </Button>
      </div>
      <ErrorText message={command.error()} />
      <Show when={result().length > 0}>
        <div role="status" aria-label="Subscribed">
          <ul class="add-result">
            <For each={result()}>{(line) => <li>{line}</li>}</For>
          </ul>
        </div>
      </Show>
    </form>
  );
}
