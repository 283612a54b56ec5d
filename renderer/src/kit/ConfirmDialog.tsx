/**
 * A dialog that asks before one command (delete this, send that now): the question, what it acts
 * on (`children`), the command's error in words; on success a toast says `done` and it closes.
 */
import type { JSX } from 'solid-js';
import { useCommand } from './command.js';
import { Dialog, DialogActions } from './Dialog.js';
import { ErrorText } from './ErrorText.js';
import { useToasts } from './toasts.js';

export function ConfirmDialog(props: { title: string; class?: string; question: string; action: string; danger?: boolean; done: string; run(): Promise<unknown>; onClose(): void; children?: JSX.Element }) {
  const toasts = useToasts();
  const command = useCommand(() => props.run());
  const go = () =>
    void command.run().then((ok) => {
      if (!ok) return;
      toasts.show(props.done);
      props.onClose();
    });
  return (
    <Dialog title={props.title} class={props.class} onClose={props.onClose}>
      <p>{props.question}</p>
      {props.children}
      <ErrorText message={command.error()} />
      <DialogActions label={props.action} onAction={go} danger={props.danger} disabled={command.busy()} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
