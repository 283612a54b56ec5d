/**
 * The `<option>`s of a channel picker. Each option says whether it is the chosen one: a `<select>`
 * whose options arrive after its value was set (the channel list still loading) would otherwise
 * show the first option, maybe a private channel, and send there.
 */
import { For } from 'solid-js';

export function ChannelOptions(props: { channels: readonly { id: number; name: string }[]; selected: number | null }) {
  return (
    <For each={props.channels}>
      {(c) => (
        <option value={String(c.id)} selected={c.id === props.selected}>
          {c.name}
        </option>
      )}
    </For>
  );
}
