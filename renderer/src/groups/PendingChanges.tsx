/** A group's changes not on the server yet: the badge of a list row, and the page's list with Retry / Discard. */
import { Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { ListView } from '../kit/ListView.js';
import { ErrorText } from '../kit/ErrorText.js';
import { describeRow } from '../outbox/panel-reducer.js';
import { useOutbox } from '../data/outbox.js';
import { groupRows, isFailed, refusalHint } from './groups-list.js';

type Rows = ReturnType<typeof groupRows>;

export function PendingBadge(props: { rows: Rows }) {
  return (
    <Show when={props.rows.length > 0}>
      <Show when={props.rows.some(isFailed)} fallback={<span class="badge badge-pending">not saved yet</span>}>
        <span class="badge badge-failed">change failed</span>
      </Show>
    </Show>
  );
}

export function PendingChanges(props: { rows: Rows; act: (what: string, f: () => Promise<unknown>) => Promise<void> }) {
  const outbox = useOutbox();
  return (
    <ListView items={props.rows} class="group-pending" label="Changes not saved yet">
      {(r) => {
        const what = () => describeRow(r).what;
        return (
          <li classList={{ failed: isFailed(r) }}>
            <span>{what()}</span>{' '}
            <Show when={isFailed(r)} fallback={<span class="badge badge-pending">not saved yet</span>}>
              <span class="badge badge-failed">failed</span>
              <ErrorText message={`The server refused: ${r.last_error?.message ?? 'no reason given'}`} />
              <Show when={refusalHint(r)}>{(hint) => <p class="hint">{hint()}</p>}</Show>
              <div class="group-pending-actions">
                <Button size="small" aria-label={`Retry: ${what()}`} onClick={() => void props.act('retry', () => outbox.retry(r.outbox_id))}>
                  Retry
                </Button>
                <Button size="small" variant="quiet" aria-label={`Discard: ${what()}`} onClick={() => void props.act('discard', () => outbox.discard(r.outbox_id))}>
                  Discard
                </Button>
              </div>
            </Show>
          </li>
        );
      }}
    </ListView>
  );
}
