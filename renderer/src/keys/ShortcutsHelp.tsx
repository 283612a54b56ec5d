/** The "Keyboard shortcuts" dialog: a modal <dialog> listing what each key does (keymap.ts's table), by section as Zulip's does. */
import { For } from 'solid-js';
import { Button } from '../kit/Button.js';
import { keyLabel, SHORTCUTS, type ShortcutSection } from './keymap.js';

const SECTIONS: readonly ShortcutSection[] = ['The basics', 'Navigation', 'Message actions'];

export function ShortcutsHelp(props: { ref(el: HTMLDialogElement): void }) {
  return (
    <dialog ref={(el) => props.ref(el)} class="shortcuts-dialog" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <p class="hint">Single keys work when you are not typing in a field. Message actions act on the selected message (J / K select one).</p>
      <For each={SECTIONS}>
        {(section) => (
          <table class="shortcuts-table">
            <caption>{section}</caption>
            <thead>
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">What they do</th>
              </tr>
            </thead>
            <tbody>
              <For each={SHORTCUTS.filter((s) => s.section === section)}>
                {(s) => (
                  <tr>
                    <td>
                      <For each={s.keys}>
                        {(k, i) => (
                          <>
                            {i() > 0 ? ' or ' : ''}
                            <kbd>{keyLabel(k)}</kbd>
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
        )}
      </For>
      <form method="dialog" class="shortcuts-actions">
        <Button type="submit" variant="primary">
          Close
        </Button>
      </form>
    </dialog>
  );
}
