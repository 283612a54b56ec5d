/**
 * The Preferences tab's "Desktop app" group: close to tray and start at login, settings of the
 * Electron app kept by its main process (core/desktop-settings.ts, main/desktop-settings.ts). In a browser they do not apply:
 * the group says so instead.
 */
import { createSignal, For, onMount, Show } from 'solid-js';
import { errorText } from '../core/errors.js';
import type { DesktopSettings } from '../../../sync/protocol/desktop.js';
import { desktopSettings } from '../core/desktop-settings.js';

const SWITCHES: ReadonlyArray<{ key: 'close_to_tray' | 'start_at_login'; label: string; hint: string }> = [
  { key: 'close_to_tray', label: 'Keep running in the tray when the window is closed', hint: 'Messages keep syncing and your changes keep sending; Quit from the tray icon to stop.' },
  { key: 'start_at_login', label: 'Start Zulip Offline when you log in to this computer', hint: '' },
];

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
      <Show when={desktopSettings.available()} fallback={<p class="hint">The tray icon and starting at login are settings of the desktop app; they do not apply in a browser.</p>}>
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
        <Show when={error()}>
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
      </Show>
    </fieldset>
  );
}
