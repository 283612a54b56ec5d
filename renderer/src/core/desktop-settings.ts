/**
 * The desktop app's own settings (close to tray, start at login, Do Not Disturb, spell check), kept by the
 * Electron main process and reached through the preload's `desktopSettings` (parsed here with the
 * contract's schema). In a browser there are none: `desktopSettings.available()` is false.
 */
import { createSignal } from 'solid-js';
import { desktopSettingsAnswerSchema, type DesktopSettings, type DesktopSettingsAnswer } from '../../../sync/protocol/desktop.js';
import { rpcResultSchema } from '../../../sync/protocol/rpc.js';
import { BridgeError } from './bridge-error.js';

const api = () => (typeof window === 'undefined' ? undefined : window.zulip?.desktopSettings);
const [current, setCurrent] = createSignal<DesktopSettingsAnswer | undefined>();

async function call(patch: Partial<DesktopSettings> | null): Promise<void> {
  const f = api();
  if (!f) return;
  const r = rpcResultSchema.safeParse(await f(patch));
  if (!r.success) throw new BridgeError('INTERNAL', 'desktop settings: the answer does not match the contract');
  if (!r.data.ok) throw new BridgeError(r.data.error.code, r.data.error.message);
  const s = desktopSettingsAnswerSchema.safeParse(r.data.value);
  if (!s.success) throw new BridgeError('INTERNAL', 'desktop settings: the answer does not match the contract');
  setCurrent(s.data);
}

export const desktopSettings = {
  available: (): boolean => typeof api() === 'function',
  /** The settings once loaded, with the spell-check languages available (undefined before, and in a browser). */
  get: current,
  load: (): Promise<void> => call(null),
  set: (patch: Partial<DesktopSettings>): Promise<void> => call(patch),
};
