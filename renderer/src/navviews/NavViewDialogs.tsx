/** The navigation views' dialogs: add the current view under a name, rename a custom view, delete one. */
import { createSignal } from 'solid-js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { ErrorText } from '../kit/ErrorText.js';
import { addIntent, deleteIntent, isBuiltIn, refusalText, renameIntent, type SidebarView, type StoredView, type ViewIntent } from './nav-views.js';

export type Run = (intent: ViewIntent, done: string) => Promise<unknown>;

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
    <Dialog title="Add this view to the sidebar" class="navview-dialog" onClose={props.onClose}>
      <form onSubmit={submit} class="navview-form">
        <label class="navview-field">
          <span class="navview-label">Name</span>
          <input value={name()} onInput={(e) => (setName(e.currentTarget.value), setError(null))} placeholder={builtIn() ? 'Built-in views keep their name' : 'e.g. Team updates'} />
        </label>
        <label class="navview-field">
          <span class="navview-label">View (its link after #)</span>
          <input value={fragment()} onInput={(e) => (setFragment(e.currentTarget.value), setError(null))} />
        </label>
        <ErrorText message={error()} />
        <DialogActions label="Add view" onCancel={() => props.onClose()} />
      </form>
    </Dialog>
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
    <Dialog title={`Rename view ${props.view.label}`} class="navview-dialog" onClose={props.onClose}>
      <form onSubmit={submit} class="navview-form">
        <label class="navview-field">
          <span class="navview-label">New name</span>
          <input value={name()} onInput={(e) => (setName(e.currentTarget.value), setError(null))} />
        </label>
        <ErrorText message={error()} />
        <DialogActions label="Rename" onCancel={() => props.onClose()} />
      </form>
    </Dialog>
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
