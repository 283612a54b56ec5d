/** The navigation views' dialogs: add the current view under a name, rename a custom view, delete one. */
import { createSignal, type JSX } from 'solid-js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { addIntent, deleteIntent, isBuiltIn, refusalText, renameIntent, type SidebarView, type StoredView, type ViewIntent } from './nav-views.js';

export type Run = (intent: ViewIntent, done: string) => Promise<unknown>;

/** A view dialog's form: its fields, the refusal if any, and the action with Cancel. */
function FormDialog(props: { title: string; action: string; error: string | null; onSubmit(e: Event): void; onClose(): void; children: JSX.Element }) {
  return (
    <Dialog title={props.title} class="navview-dialog" onClose={props.onClose}>
      <form onSubmit={(e) => props.onSubmit(e)} class="navview-form">
        {props.children}
        <ErrorText message={props.error} />
        <DialogActions label={props.action} onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}

function Field(props: { label: string; value: string; onInput(value: string): void; placeholder?: string }) {
  return (
    <label class="navview-field">
      <span class="navview-label">{props.label}</span>
      <input value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} placeholder={props.placeholder} />
    </label>
  );
}

export function AddViewDialog(props: { fragment: string; stored: readonly StoredView[]; run: Run; onClose(): void }) {
  const [name, setName] = createSignal('');
  const [fragment, setFragment] = createSignal(props.fragment);
  const [error, setError] = createSignal<string | null>(null);
  const builtIn = () => isBuiltIn(fragment().trim().replace(/^#+/, ''));
  const submit = (e: Event) => {
    e.preventDefault();
    const r = addIntent(fragment(), name(), props.stored);
    if ('error' in r) return setError(refusalText(r.error));
    props.onClose();
    void props.run(r, builtIn() ? 'View pinned to the sidebar.' : `“${name().trim()}” added to the sidebar.`);
  };
  return (
    <FormDialog title="Add this view to the sidebar" action="Add view" error={error()} onSubmit={submit} onClose={props.onClose}>
      <Field label="Name" value={name()} onInput={(v) => (setName(v), setError(null))} placeholder={builtIn() ? 'Built-in views keep their name' : 'e.g. Team updates'} />
      <Field label="View (its link after #)" value={fragment()} onInput={(v) => (setFragment(v), setError(null))} />
    </FormDialog>
  );
}

export function RenameViewDialog(props: { view: SidebarView; stored: readonly StoredView[]; run: Run; onClose(): void }) {
  const [name, setName] = createSignal(props.view.label);
  const [error, setError] = createSignal<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const r = renameIntent(props.view.fragment, name(), props.stored);
    if ('error' in r) return setError(refusalText(r.error));
    props.onClose();
    void props.run(r, `View renamed to “${name().trim()}”.`);
  };
  return (
    <FormDialog title={`Rename view ${props.view.label}`} action="Rename" error={error()} onSubmit={submit} onClose={props.onClose}>
      <Field label="New name" value={name()} onInput={(v) => (setName(v), setError(null))} />
    </FormDialog>
  );
}

export function DeleteViewDialog(props: { view: SidebarView; run: Run; onClose(): void }) {
  const [error, setError] = createSignal<string | null>(null);
  const remove = () => {
    const r = deleteIntent(props.view.fragment);
    if ('error' in r) return setError(r.error);
    props.onClose();
    void props.run(r, `View “${props.view.label}” deleted.`);
  };
  return (
    <Dialog title={`Delete view ${props.view.label}`} class="navview-dialog" onClose={props.onClose}>
      <p>{`Remove “${props.view.label}” from your views? The messages stay where they are.`}</p>
      <ErrorText message={error()} />
      <DialogActions label="Delete view" onAction={remove} danger onCancel={() => props.onClose()} />
    </Dialog>
  );
}
