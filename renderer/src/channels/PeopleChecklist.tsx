import { For } from 'solid-js';
import type { UserSummary } from '../../../sync/protocol/commands.js';

/** People to pick with a checkbox each (subscribing others: creating a channel, adding subscribers). */
export function PeopleChecklist(props: { people: readonly UserSummary[]; picked: readonly number[]; disabled: boolean; onToggle(id: number, on: boolean): void }) {
  return (
    <ul class="people-picker" aria-label="People to subscribe">
      <For each={props.people}>
        {(u) => (
          <li>
            <label>
              <input type="checkbox" checked={props.picked.includes(u.user_id)} disabled={props.disabled} onChange={(e) => props.onToggle(u.user_id, e.currentTarget.checked)} />
              {u.full_name}
            </label>
          </li>
        )}
      </For>
    </ul>
  );
}
