/**
 * Settings: the user's personal settings as the engine has them (register's `user_settings`,
 * kept current by `user_settings` events, so a change made in another client arrives here) and the
 * display settings derived from them, which are applied to the page while this store lives.
 */
import { createContext, createEffect, createMemo, onCleanup, useContext, type JSX } from 'solid-js';
import { createAreaQuery } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { displaySettings, type DisplaySettings } from './display.js';
import { showDisplaySettings } from './look.js';

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
    when: (e) => e.type === 'status' && e.status.state === 'live',
    initial: null,
    onError: 'keep',
  });
  const display = createMemo(() => displaySettings(q.state.data));
  return { raw: () => q.state.data, display, refresh: q.refresh, dispose: q.dispose };
}

const Ctx = createContext<SettingsStore>();

/** Provides the settings and shows their display part on the page until unmounted. */
export function SettingsProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const store = createSettingsStore(props.bridge ?? defaultBridge);
  createEffect(() => showDisplaySettings(store.display()));
  onCleanup(() => {
    store.dispose();
    showDisplaySettings(null);
  });
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useSettings(): SettingsStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSettings() used outside <SettingsProvider>');
  return s;
}
