/**
 * A modal dialog on the native `<dialog>` (showModal: the browser traps focus, Escape closes it,
 * the rest of the page is inert). Titled for assistive technology; a Close button in its header.
 * Rendered only while open: closing (Escape, Close, or the parent removing it) calls `onClose`,
 * and focus goes back to what had it before.
 */
import { createUniqueId, onCleanup, onMount, type JSX } from 'solid-js';
import { Button } from './Button.js';
import './overlays.css';

export interface DialogProps {
  title: string;
  onClose(): void;
  class?: string;
  children: JSX.Element;
}

export function Dialog(props: DialogProps) {
  let dialog: HTMLDialogElement | undefined;
  const titleId = createUniqueId();
  const before = document.activeElement;
  // The native `close` event arrives a task later: once removed, this dialog no longer speaks
  // (another one may be open by then).
  let mounted = true;
  onMount(() => {
    if (dialog && !dialog.open) dialog.showModal();
  });
  onCleanup(() => {
    mounted = false;
    if (dialog?.open) dialog.close();
    if (before instanceof HTMLElement && before.isConnected) before.focus();
  });
  return (
    <dialog ref={dialog} class={`dialog ${props.class ?? ''}`} aria-labelledby={titleId} onClose={() => mounted && props.onClose()}>
      <header class="dialog-header">
        <h2 id={titleId} class="dialog-title">
          {props.title}
        </h2>
        <Button variant="quiet" size="small" class="dialog-close" aria-label="Close" onClick={() => props.onClose()}>
          ×
        </Button>
      </header>
      <div class="dialog-body">{props.children}</div>
    </dialog>
  );
}

/**
 * A dialog's closing row: its primary action (a submit button for the dialog's form, or `onAction`
 * when it has none), then Cancel.
 */
export function DialogActions(props: { label: JSX.Element; onAction?: () => void; danger?: boolean; disabled?: boolean; onCancel(): void }) {
  return (
    <div class="dialog-actions">
      <Button
        type={props.onAction ? 'button' : 'submit'}
        variant="primary"
        class={props.danger ? 'danger' : undefined}
        disabled={props.disabled}
        onClick={() => props.onAction?.()}
      >
        {props.label}
      </Button>
      <Button variant="quiet" onClick={() => props.onCancel()}>
        Cancel
      </Button>
    </div>
  );
}
