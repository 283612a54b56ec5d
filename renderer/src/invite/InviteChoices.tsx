/** The channels (the organization's defaults first selected) and groups an invitation adds people to. */
import { For, Show } from 'solid-js';
import type { OperationResponse } from '../../../sync/protocol/rpc.js';

type Options = OperationResponse<'inviteOptions'>;
const toggle = (list: number[], id: number, on: boolean) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id));

export function InviteChoices(props: {
  options: { data: Options | null; error: string | null };
  live: boolean;
  busy: boolean;
  channels: readonly { channel_id: number; name: string; is_default: boolean }[];
  channelIds: number[];
  onChannels(ids: number[]): void;
  includeDefaults: boolean;
  onIncludeDefaults(on: boolean): void;
  groupIds: number[];
  onGroups(ids: number[]): void;
}) {
  const busy = () => props.busy;
  return (
    <>
      <fieldset class="invite-group">
        <legend>Channels</legend>
        <label class="invite-check">
          <input type="checkbox" checked={props.includeDefaults} onChange={(e) => props.onIncludeDefaults(e.currentTarget.checked)} disabled={busy()} />
          Include the organization’s default channels
        </label>
        <Show when={props.options.data === null && props.live}>
          <p class="hint">Asking the server for the default channels…</p>
        </Show>
        <Show when={props.options.error !== null && props.live}>
          <p class="error">{props.options.error}</p>
        </Show>
        <ul class="invite-choices" aria-label="Channels to subscribe them to">
          <For each={props.channels}>
            {(c) => (
              <li>
                <label class="invite-check">
                  <input
                    type="checkbox"
                    checked={props.channelIds.includes(c.channel_id)}
                    onChange={(e) => props.onChannels(toggle(props.channelIds, c.channel_id, e.currentTarget.checked))}
                    disabled={busy()}
                  />
                  #{c.name}
                  <Show when={c.is_default}>
                    <span class="badge badge-neutral">default</span>
                  </Show>
                </label>
              </li>
            )}
          </For>
        </ul>
      </fieldset>
      <Show when={(props.options.data?.groups.length ?? 0) > 0}>
        <fieldset class="invite-group">
          <legend>Groups</legend>
          <ul class="invite-choices" aria-label="Groups to add them to">
            <For each={props.options.data?.groups ?? []}>
              {(g) => (
                <li>
                  <label class="invite-check" title={g.description}>
                    <input type="checkbox" checked={props.groupIds.includes(g.group_id)} onChange={(e) => props.onGroups(toggle(props.groupIds, g.group_id, e.currentTarget.checked))} disabled={busy()} />
                    {g.name}
                  </label>
                </li>
              )}
            </For>
          </ul>
        </fieldset>
      </Show>
    </>
  );
}
