/**
 * The "Updates" part of Preferences › Desktop app (Electron only): the update feed URL (empty: off,
 * the default), the updater's state as main pushes it (core/updates.ts, main/updater.ts), "Check for
 * updates", and "Restart to update" once a newer version is downloaded. Nothing here pops up by itself.
 */
import { createSignal, createEffect, onMount, Show } from 'solid-js';
import type { UpdateStatus } from '../../../sync/protocol/desktop.js';
import { desktopSettings } from '../core/desktop-settings.js';
import { errorText } from '../core/errors.js';
import { updates } from '../core/updates.js';
import { Button } from '../kit/Button.js';
import { dateText } from '../kit/format.js';

/** The state in words. */
export function updateStateText(s: UpdateStatus): string {
  switch (s.state) {
    case 'off':
      return `Updates are off: no update feed is set. This is Zulip Offline ${s.current_version}.`;
    case 'idle':
      return `Zulip Offline ${s.current_version}; not checked for updates yet.`;
    case 'checking':
      return 'Checking for updates…';
    case 'up_to_date':
      return `Zulip Offline ${s.current_version} is up to date (checked at ${dateText(new Date(s.checked_at), undefined, { hour: '2-digit', minute: '2-digit' })}).`;
    case 'available':
      return `Version ${s.version} is available; downloading it…`;
    case 'downloading':
      return `Downloading version ${s.version}: ${s.percent}%`;
    case 'downloaded':
      return `Version ${s.version} is downloaded and ready to install. It installs when you quit, or now with Restart to update.`;
    case 'installing':
      return `Closing safely, then installing version ${s.version}…`;
    case 'error':
      return s.message;
  }
}

const percentOf = (s: UpdateStatus): number | undefined => (s.state === 'downloading' ? s.percent : undefined);

export function DesktopUpdates(props: { onError: (message: string | null) => void }) {
  const saved = () => desktopSettings.get()?.update_feed_url ?? '';
  const [draft, setDraft] = createSignal(saved());
  createEffect(() => setDraft(saved()));
  onMount(() => {
    updates.load().catch((e: unknown) => props.onError(errorText(e)));
  });
  const fail = (e: unknown) => props.onError(errorText(e));
  /** The feed as typed, saved if it changed (main validates it). */
  const saveFeed = async () => {
    const url = draft().trim();
    if (url === saved()) return;
    props.onError(null);
    await desktopSettings.set({ update_feed_url: url });
    await updates.load();
  };
  const check = () => {
    props.onError(null);
    saveFeed()
      .then(() => updates.check())
      .catch(fail);
  };
  const state = () => updates.status()?.state;
  const busy = () => state() === 'checking' || state() === 'available' || state() === 'downloading' || state() === 'installing';
  return (
    <fieldset class="settings-group desktop-updates">
      <legend>Updates</legend>
      <div class="setting-row">
        <label class="setting-label" for="desktop-update-feed">
          Update feed URL
        </label>
        <input
          id="desktop-update-feed"
          type="text"
          inputMode="url"
          spellcheck={false}
          placeholder="https://downloads.example.org/zulip-offline/"
          value={draft()}
          aria-describedby="desktop-update-feed-hint"
          onInput={(e) => setDraft(e.currentTarget.value)}
          onChange={() => void saveFeed().catch(fail)}
        />
        <p class="hint setting-hint" id="desktop-update-feed-hint">
          Where new versions are published (the folder holding latest.yml). Empty: updates are off. https:// only.
        </p>
      </div>
      <Show when={updates.status()}>
        {(s) => (
          <div class="setting-row">
            <span class="setting-label">Status</span>
            <p class="setting-state desktop-update-state" role="status">
              {updateStateText(s())}
              <Show when={percentOf(s())}>{(p) => <progress aria-label="Update download" max={100} value={p()} />}</Show>
            </p>
          </div>
        )}
      </Show>
      <div class="setting-row">
        <span />
        <span class="setting-actions">
          <Button disabled={busy() || (draft().trim() === '' && saved() === '')} onClick={check}>
            Check for updates
          </Button>
          <Show when={state() === 'downloaded'}>
            <Button variant="primary" onClick={() => void updates.install().catch(fail)}>
              Restart to update
            </Button>
          </Show>
        </span>
      </div>
    </fieldset>
  );
}
