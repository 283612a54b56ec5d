/**
 * The desktop app's own settings (Electron only; kept by main/desktop-settings.ts, shown by
 * renderer/src/settings/DesktopApp.tsx), carried over IPC_DESKTOP_SETTINGS and parsed on both sides.
 */
import { z } from 'zod';

export const desktopSettingsSchema = z.object({
  /** Closing the window hides it; the app keeps syncing and sending from the tray. */
  close_to_tray: z.boolean(),
  /** The app starts when the user logs in to the computer. */
  start_at_login: z.boolean(),
  /** No desktop notifications from this device. */
  do_not_disturb: z.boolean(),
});
export type DesktopSettings = z.output<typeof desktopSettingsSchema>;
