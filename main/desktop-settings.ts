/**
 * The desktop app's own settings (not the user's Zulip settings, which live in the realm): kept in
 * `userData/desktop-settings.json`, read and changed by the page over IPC_DESKTOP_SETTINGS.
 *   close_to_tray     closing the window hides it; the app keeps syncing and sending from the tray
 *                     (on by default on Windows and Linux, as zulip-desktop's; macOS keeps apps in
 *                     the dock anyway)
 *   start_at_login    the app starts when the user logs in (app.setLoginItemSettings)
 *   do_not_disturb    no desktop notifications from this device
 *   spellcheck, spellcheck_languages   spell check on or off, and its dictionaries (main/spellcheck.ts);
 *                     a language this computer has no dictionary for is refused
 *   update_feed_url   where updates come from (main/updater.ts); '' (the default) is off; https only,
 *                     or http to this computer for testing a feed
 * The page asks with `null` (answer: the settings) or a patch (answer: the settings after it). Only
 * our page may ask (the same sender check as every IPC); the payload is parsed with zod.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ipcMain } from 'electron';
import * as z from 'zod';
import { desktopSettingsSchema as settingsSchema, type DesktopSettings, type DesktopSettingsAnswer } from '../sync/protocol/desktop.js';
import type { RpcResult } from '../sync/protocol/rpc.js';
import { CHANNELS } from './ipc-channels.js';
import { refused, senderProblem, type IpcOptions } from './ipc.js';

export type { DesktopSettings };
const patchSchema = settingsSchema.partial().strict();

export function defaultDesktopSettings(platform: NodeJS.Platform): DesktopSettings {
  return { close_to_tray: platform !== 'darwin', start_at_login: false, do_not_disturb: false, spellcheck: true, spellcheck_languages: [], update_feed_url: '' };
}

export class DesktopSettingsStore {
  private current: DesktopSettings;
  private readonly listeners = new Set<(s: DesktopSettings, before: DesktopSettings) => void>();
  constructor(
    private readonly file: string,
    platform: NodeJS.Platform = process.platform,
    private readonly log: (line: string) => void = (l) => console.warn(l),
  ) {
    this.current = defaultDesktopSettings(platform);
    try {
      // A file from a build that knew fewer settings keeps what it has; anything odd means defaults.
      const r = settingsSchema.partial().safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (r.success) this.current = { ...this.current, ...r.data };
    } catch {
      // missing or not JSON: defaults
    }
  }

  get(): DesktopSettings {
    return this.current;
  }

  set(patch: Partial<DesktopSettings>): DesktopSettings {
    const before = this.current;
    this.current = { ...before, ...patch };
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.current, null, 2));
      renameSync(tmp, this.file);
    } catch (e) {
      this.log(`could not save the desktop settings: ${String(e)}`);
    }
    for (const l of this.listeners) l(this.current, before);
    return this.current;
  }

  /** Hear every change (with the settings before it). */
  onChange(listener: (s: DesktopSettings, before: DesktopSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Serve IPC_DESKTOP_SETTINGS; returns the undo. */
export function handleDesktopSettings(
  store: DesktopSettingsStore,
  opts: Pick<IpcOptions, 'window' | 'isOwnUrl' | 'log'> & { readonly spellCheckerLanguages?: () => readonly string[] },
): () => void {
  const available = () => [...(opts.spellCheckerLanguages?.() ?? [])];
  const answer = (s: DesktopSettings): RpcResult => {
    const value: DesktopSettingsAnswer = { ...s, available_spellcheck_languages: available() };
    return { ok: true, value };
  };
  ipcMain.handle(CHANNELS.desktopSettings, (event, payload: unknown): RpcResult => {
    const problem = senderProblem(event, opts);
    if (problem) {
      opts.log?.(`IPC desktop-settings refused: ${problem}`);
      return refused(`refused: ${problem}`);
    }
    if (payload === null || payload === undefined) return answer(store.get());
    const parsed = patchSchema.safeParse(payload);
    if (!parsed.success) return refused(`invalid desktop settings: ${z.prettifyError(parsed.error)}`);
    const unknown = (parsed.data.spellcheck_languages ?? []).filter((l) => !available().includes(l));
    if (unknown.length > 0) return refused(`no spell-check dictionary for ${unknown.join(', ')} on this computer`);
    return answer(store.set(parsed.data));
  });
  return () => ipcMain.removeHandler(CHANNELS.desktopSettings);
}
