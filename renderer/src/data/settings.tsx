/**
 * Settings: the user's personal settings as the engine has them (register's `user_settings`,
 * kept current by `user_settings` events, so a change made in another client arrives here) and the
 * display settings derived from them, which are applied to the page while this store lives.
 */
import { createEffect, createMemo, onCleanup } from 'solid-js';
import { createAreaQuery, turnedLive } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import { displaySettings, type DisplaySettings } from './display.js';
import { showDisplaySettings } from './look.js';
import { storeContext } from './store-context.js';

export interface SettingsStore {
  /** Setting name → value; null before the first answer. */
  raw(): Readonly<Record<string, unknown>> | null;
  display(): DisplaySettings;
  refresh(): Promise<void>;
  dispose(): void;
}

export function createSettingsStore(bridge: Bridge): SettingsStore {
  const q = createAreaQuery<Record<string, unknown> | null>(bridge, {
    fetch: () => bridge.invoke('userSettings', {}),
    areas: ['user_settings'],
    // Before the first sync the engine knows no settings yet; once live it does.
    when: turnedLive,
    initial: null,
    onError: 'keep',
  });
  const display = createMemo(() => displaySettings(q.state.data));
  return { raw: () => q.state.data, display, refresh: q.refresh, dispose: q.dispose };
}

/** Provides the settings and shows their display part on the page until unmounted. */
const ctx = storeContext('Settings', (bridge) => createSettingsStore(bridge), (store) => {
  createEffect(() => showDisplaySettings(store.display()));
  onCleanup(() => showDisplaySettings(null));
});
export const SettingsProvider = ctx.Provider;
export const useSettings = ctx.use;
