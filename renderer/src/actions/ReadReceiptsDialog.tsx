/**
 * Who read a message (Zulip's "Read receipts": GET /messages/{id}/read_receipts through the engine),
 * by name. Online only: offline the dialog says it needs a connection, as other online-only
 * actions do; the organization having read receipts off is the server's words.
 */
import { createResource, For, Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { Bridge } from '../core/bridge.js';
import { isBridgeError } from '../core/bridge-error.js';
import { errorText } from '../core/errors.js';
import { Dialog } from '../kit/Dialog.js';
import { useUsers } from '../data/users.js';
import { NEEDS_CONNECTION } from '../settings/needs-connection.js';
import { Fetched } from './message-dialogs.js';

export function ReadReceiptsDialog(props: { message: LocalMessage; bridge: Bridge; onClose(): void }) {
  const users = useUsers();
  const [receipts] = createResource(() => props.message.id, (id) => props.bridge.invoke('readReceipts', { message_id: id }));
  const name = (id: number) => users.byId().get(id)?.full_name ?? `user ${id}`;
  const failed = (e: unknown) => (isBridgeError(e) && e.code === 'OFFLINE' ? `Showing who read this message ${NEEDS_CONNECTION}.` : `Cannot show who read this message now. ${errorText(e)}`);
  return (
    <Dialog title="Read receipts" class="read-receipts-dialog" onClose={props.onClose}>
      <Fetched resource={receipts} failed={failed} loading="Loading who read this message…">
        {(r) => (
          <Show when={r.user_ids.length > 0} fallback={<p class="hint">Nobody has read this message yet.</p>}>
            <p class="hint">This message has been read by {r.user_ids.length === 1 ? '1 person' : `${r.user_ids.length} people`}:</p>
            <ul class="read-receipts" aria-label="Read by">
              <For each={[...r.user_ids].sort((a, b) => name(a).localeCompare(name(b)))}>{(id) => <li>{name(id)}</li>}</For>
            </ul>
          </Show>
        )}
      </Fetched>
    </Dialog>
  );
}
