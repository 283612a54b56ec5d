/** The "Keyboard shortcuts" dialog: a modal <dialog> listing what each key does (keymap.ts). */
import { For } from 'solid-js';
import { Button } from '../kit/Button.js';
import { SHORTCUTS } from './keymap.js';

export function ShortcutsHelp(props: { ref(el: HTMLDialogElement): void }) {
  return (
    <dialog ref={(el) => props.ref(el)} class="shortcuts-dialog" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <p class="hint">Single keys work when you are not typing in a field.</p>
      <table class="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          <For each={SHORTCUTS}>
            {(s) => (
              <tr>
                <td>
                  <For each={s.keys}>
                    {(k, i) => (
                      <>
                        {i() > 0 ? ' or ' : ''}
                        <kbd>{k}</kbd>
                      </>
                    )}
                  </For>
                </td>
                <td>{s.what}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <form method="dialog" class="shortcuts-actions">
        <Button type="submit" variant="primary">
          Close
        </Button>
      </form>
    </dialog>
  );
}
