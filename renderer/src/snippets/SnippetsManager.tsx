/**
 * Saved snippets, managed: the list (with a marker while a change is not on the server yet),
 * a form to create one or edit the one picked, and Delete (asking first). Every change is a
 * queued command (createSavedSnippet, editSavedSnippet, deleteSavedSnippet), so all of it works offline.
 */
import { createSignal, Show } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { ListView } from '../kit/ListView.js';
import { Dialog } from '../kit/Dialog.js';
import { useOutbox } from '../data/outbox.js';
import { pendingLabel, pendingRowsFor } from '../scheduled/scheduled-list.js';
import { snippetProblem } from './snippet-filter.js';
import { useSavedSnippets, type SavedSnippet } from './store.js';
import '../scheduled/scheduled.css';
import './snippets.css';
import { ErrorText } from '../kit/ErrorText.js';

export function SnippetsManager(props: { bridge: Bridge; onClose(): void }) {
  const state = useSavedSnippets(props.bridge);
  const outbox = useOutbox();
  const [editing, setEditing] = createSignal<SavedSnippet | null>(null);
  const [title, setTitle] = createSignal('');
  const [content, setContent] = createSignal('');
  const [confirm, setConfirm] = createSignal<SavedSnippet | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  let titleInput: HTMLInputElement | undefined;

  const startEdit = (s: SavedSnippet | null) => {
    setEditing(s);
    setTitle(s?.title ?? '');
    setContent(s?.content ?? '');
    setError(null);
    titleInput?.focus();
  };
  const save = (e: Event) => {
    e.preventDefault();
    const why = snippetProblem(title(), content());
    if (why !== null) return setError(why);
    const s = editing();
    const done = () => startEdit(null);
    const fail = (err: unknown) => setError(errorText(err));
    if (s === null) {
      props.bridge.invoke('createSavedSnippet', { title: title().trim(), content: content() }).then(done, fail);
      return;
    }
    const patch: { snippet_id: number; title?: string; content?: string } = { snippet_id: s.id };
    if (title().trim() !== s.title) patch.title = title().trim();
    if (content() !== s.content) patch.content = content();
    if (patch.title === undefined && patch.content === undefined) return done();
    props.bridge.invoke('editSavedSnippet', patch).then(done, fail);
  };
  const remove = (s: SavedSnippet) => {
    setConfirm(null);
    if (editing()?.id === s.id) startEdit(null);
    props.bridge.invoke('deleteSavedSnippet', { snippet_id: s.id }).catch((err: unknown) => setError(errorText(err)));
  };

  return (
    <Dialog title="Saved snippets" class="snippets-dialog" onClose={props.onClose}>
      <ListView
        items={[...state.data].sort((a, b) => a.title.localeCompare(b.title))}
        loaded={state.loaded}
        loading={<p class="hint">Loading…</p>}
        empty={<p class="hint">No saved snippets yet.</p>}
        class="screen-list snippet-list"
        label="Saved snippets"
      >
        {(s) => (
          <li class="snippet-row" classList={{ editing: editing()?.id === s.id }}>
            <div class="snippet-text">
              <span class="snippet-title">{s.title}</span>
              <Show when={pendingLabel(pendingRowsFor(outbox.state.rows, 'snippet', s.id))}>{(l) => <span class="badge badge-pending">{l()}</span>}</Show>
              <span class="snippet-preview secondary-text">{s.content}</span>
            </div>
            <Show
              when={confirm()?.id === s.id}
              fallback={
                <>
                  <Button size="small" aria-label={`Edit ${s.title}`} onClick={() => startEdit(s)}>
                    Edit
                  </Button>
                  <Button size="small" variant="quiet" aria-label={`Delete ${s.title}`} onClick={() => setConfirm(s)}>
                    Delete
                  </Button>
                </>
              }
            >
              <Button size="small" variant="primary" class="danger" aria-label={`Confirm deleting ${s.title}`} onClick={() => remove(s)}>
                Delete
              </Button>
              <Button size="small" variant="quiet" onClick={() => setConfirm(null)}>
                Keep
              </Button>
            </Show>
          </li>
        )}
      </ListView>
      <form class="snippet-form" aria-label={editing() ? 'Edit snippet' : 'New snippet'} onSubmit={save}>
        <h3 class="snippet-form-title">{editing() ? `Edit “${editing()?.title ?? ''}”` : 'New snippet'}</h3>
        <label class="schedule-field">
          <span class="schedule-label">Title</span>
          <input ref={titleInput} value={title()} onInput={(e) => (setTitle(e.currentTarget.value), setError(null))} />
        </label>
        <label class="schedule-field">
          <span class="schedule-label">Text</span>
          <textarea class="schedule-text" rows={4} value={content()} onInput={(e) => (setContent(e.currentTarget.value), setError(null))} />
        </label>
        <ErrorText message={error()} />
        <div class="dialog-actions">
          <Button type="submit" variant="primary">
            {editing() ? 'Save snippet' : 'Create snippet'}
          </Button>
          <Show when={editing()}>
            <Button variant="quiet" onClick={() => startEdit(null)}>
              Cancel editing
            </Button>
          </Show>
        </div>
      </form>
    </Dialog>
  );
}
