/**
 * The `<option>`s of a channel picker. Each option says whether it is the chosen one: a `<select>`
 * whose options arrive after its value was set (the channel list still loading) would otherwise
 * show the first option, maybe a private channel, and send there.
 *
 * Plain elements, made in one pass, with one effect for the choice: a picker of a large
 * organisation's 500 channels (the new-topic composer of every channel view) would otherwise cost
 * a reactive scope and an effect per option each time it is made.
 */
import { createMemo, createRenderEffect } from 'solid-js';

export function ChannelOptions(props: { channels: readonly { id: number; name: string }[]; selected: number | null }) {
  const options = createMemo(() =>
    props.channels.map((c) => {
      const o = document.createElement('option');
      o.value = String(c.id);
      o.textContent = c.name;
      return o;
    }),
  );
  createRenderEffect(() => {
    const chosen = props.selected === null ? null : String(props.selected);
    for (const o of options()) o.selected = o.value === chosen;
  });
  return <>{options()}</>;
}
