/**
 * The Preferences tab's "Desktop app" group: close to tray, start at login and spell check (on or
 * off, and its languages among the dictionaries this computer has), updates (DesktopUpdates.tsx), settings of the Electron app
 * kept by its main process (core/desktop-settings.ts, main/desktop-settings.ts). In a browser they do not apply (the browser's
 * own spell check works): the group says so instead.
 */
import { createSignal, For, onMount, Show } from 'solid-js';
import { errorText } from '../core/errors.js';
import type { DesktopSettings } from '../../../sync/protocol/desktop.js';
import { desktopSettings } from '../core/desktop-settings.js';
import { updates } from '../core/updates.js';
import { DesktopUpdates } from './DesktopUpdates.js';

const SWITCHES: ReadonlyArray<{ key: 'close_to_tray' | 'start_at_login' | 'spellcheck'; label: string; hint: string }> = [
  { key: 'close_to_tray', label: 'Keep running in the tray when the window is closed', hint: 'Messages keep syncing and your changes keep sending; Quit from the tray icon to stop.' },
  { key: 'start_at_login', label: 'Start Zulip Offline when you log in to this computer', hint: '' },
  { key: 'spellcheck', label: 'Check spelling as you type', hint: 'Right-click a misspelled word for suggestions or to add it to the dictionary.' },
];

/** "English (United States) · en-US", in the page's language. */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} · ${tag}` : tag;
  } catch {
    return tag;
  }
}

export function DesktopApp() {
  const [error, setError] = createSignal<string | null>(null);
  onMount(() => {
    if (desktopSettings.available()) desktopSettings.load().catch((e: unknown) => setError(errorText(e)));
  });
  const change = (patch: Partial<DesktopSettings>) => {
    setError(null);
    desktopSettings.set(patch).catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <fieldset class="screen-card settings-group">
      <legend>Desktop app</legend>
      <Show
        when={desktopSettings.available()}
        fallback={<p class="hint">The tray icon, starting at login and spell-check languages are settings of the desktop app; they do not apply in a browser (its own spell check works in the text fields).</p>}
      >
        <For each={SWITCHES}>
          {(s) => (
            <div class="setting-row setting-check">
              <input
                id={`desktop-${s.key}`}
                type="checkbox"
                checked={desktopSettings.get()?.[s.key] === true}
                disabled={desktopSettings.get() === undefined}
                aria-describedby={s.hint ? `desktop-${s.key}-hint` : undefined}
                onChange={(e) => change({ [s.key]: e.currentTarget.checked })}
              />
              <label class="setting-label" for={`desktop-${s.key}`}>
                {s.label}
              </label>
              <Show when={s.hint}>
                <p class="hint setting-hint" id={`desktop-${s.key}-hint`}>
                  {s.hint}
                </p>
              </Show>
            </div>
          )}
        </For>
        <Show when={(desktopSettings.get()?.available_spellcheck_languages ?? []).length > 0}>
          <div class="setting-row">
            <label class="setting-label" for="desktop-spellcheck-languages">
              Spell-check languages
            </label>
            <select
              id="desktop-spellcheck-languages"
              multiple
              size={5}
              disabled={desktopSettings.get()?.spellcheck !== true}
              aria-describedby="desktop-spellcheck-languages-hint"
              onChange={(e) => change({ spellcheck_languages: Array.from(e.currentTarget.selectedOptions, (o) => o.value) })}
            >
              <For each={desktopSettings.get()?.available_spellcheck_languages ?? []}>
                {(tag) => (
                  <option value={tag} selected={desktopSettings.get()?.spellcheck_languages.includes(tag) === true}>
                    {languageName(tag)}
                  </option>
                )}
              </For>
            </select>
            <p class="hint setting-hint" id="desktop-spellcheck-languages-hint">
              Ctrl-click (⌘-click on a Mac) to choose several; none chosen checks in the system's language. On Windows and macOS the system's spell checker decides.
            </p>
          </div>
        </Show>
        <Show when={updates.available()}>
          <DesktopUpdates onError={setError} />
        </Show>
        <Show when={error()}>
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
      </Show>
    </fieldset>
  );
}
