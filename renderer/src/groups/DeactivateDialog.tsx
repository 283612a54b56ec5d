/** Deactivating a group: online only; the server's objections (what still uses the group) in words. */
import { createSignal, For, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import type { Group, GroupsById } from './group-rules.js';
import { objectionsInWords } from './groups-list.js';

export function DeactivateDialog(props: { group: Group; all: GroupsById; bridge: Bridge; onClose(): void }) {
  const toasts = useToasts();
  const [objections, setObjections] = createSignal<string[]>([]);
  const deactivate = useCommand(() => props.bridge.invoke('deactivateUserGroup', { user_group_id: props.group.id }), {
    describe: (e) => {
      setObjections(objectionsInWords(typeof e === 'object' && e !== null ? Reflect.get(e, 'details') : undefined, (id) => props.all.get(id)?.name ?? `group ${id}`));
      return errorText(e);
    },
  });
  const go = () =>
    void deactivate.run().then((ok) => {
      if (!ok) return;
      toasts.show(`“${props.group.name}” deactivated.`);
      props.onClose();
    });
  return (
    <Dialog title={`Deactivate ${props.group.name}`} class="group-deactivate-dialog" onClose={props.onClose}>
      <p>{`Deactivate “${props.group.name}”? Nobody can mention it or use it in permissions until it is reactivated.`}</p>
      <ErrorText message={deactivate.error()}>
        <Show when={objections().length > 0}>
          <ul>
            <For each={objections()}>{(o) => <li>{o}</li>}</For>
          </ul>
        </Show>
      </ErrorText>
      <DialogActions label="Deactivate" onAction={go} danger disabled={deactivate.busy()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
