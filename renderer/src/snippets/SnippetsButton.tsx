/**
 * The composer's "Snippets" button: a dialog listing the saved snippets with a search (title or
 * text); picking one hands its text to the composer, which puts it at the caret. "Manage
 * snippets" opens the manager (create, edit, delete; all queued, so offline too).
 */
import { createSignal, For, Show } from 'solid-js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { Dialog } from '../kit/Dialog.js';
import { filterSnippets } from './snippet-filter.js';
import { SnippetsManager } from './SnippetsManager.js';
import { useSavedSnippets } from './store.js';
import './snippets.css';

export function SnippetsButton(props: { onInsert(content: string): void; bridge?: Bridge; /** Hands over "open the picker" (Zulip's Ctrl+' in the composer). */ opener?(open: () => void): void }) {
  const [open, setOpen] = createSignal<'pick' | 'manage' | null>(null);
  const bridge = props.bridge ?? defaultBridge;
  props.opener?.(() => setOpen('pick'));
  return (
    <>
      <Button variant="quiet" size="small" aria-haspopup="dialog" aria-keyshortcuts="Control+'" title="Insert a saved snippet (Ctrl+')" onClick={() => setOpen('pick')}>
        Snippets
      </Button>
      <Show when={open() === 'pick'}>
        <SnippetPicker
          bridge={bridge}
          onClose={() => setOpen(null)}
          onManage={() => setOpen('manage')}
          onPick={(content) => {
            setOpen(null);
            props.onInsert(content);
          }}
        />
      </Show>
      <Show when={open() === 'manage'}>
        <SnippetsManager bridge={bridge} onClose={() => setOpen(null)} />
      </Show>
    </>
  );
}

function SnippetPicker(props: { bridge: Bridge; onClose(): void; onManage(): void; onPick(content: string): void }) {
  const state = useSavedSnippets(props.bridge);
  const [query, setQuery] = createSignal('');
  const shown = () => filterSnippets(state.data, query());
  return (
    <Dialog title="Insert a saved snippet" class="snippets-dialog" onClose={props.onClose}>
      <input
        class="snippet-search"
        type="search"
        aria-label="Search snippets"
        placeholder="Search snippets"
        value={query()}
        autofocus
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          const first = shown()[0];
          if (e.key === 'Enter' && first) {
            e.preventDefault();
            props.onPick(first.content);
          }
        }}
      />
      <Show when={state.loaded} fallback={<p class="hint">Loading…</p>}>
        <Show when={shown().length > 0} fallback={<p class="hint">{state.data.length === 0 ? 'No saved snippets yet. Create one with Manage snippets.' : 'No snippet matches.'}</p>}>
          <ul class="screen-list snippet-list" aria-label="Saved snippets">
            <For each={shown()}>
              {(s) => (
                <li>
                  <button type="button" class="snippet-pick" aria-label={`Insert ${s.title}`} onClick={() => props.onPick(s.content)}>
                    <span class="snippet-title">{s.title}</span>
                    <span class="snippet-preview secondary-text">{s.content}</span>
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </Show>
      <div class="dialog-actions">
        <Button onClick={() => props.onManage()}>Manage snippets</Button>
      </div>
    </Dialog>
  );
}
