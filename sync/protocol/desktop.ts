/**
 * The desktop app's own settings (Electron only; kept by main/desktop-settings.ts, shown by
 * renderer/src/settings/DesktopApp.tsx), carried over IPC_DESKTOP_SETTINGS and parsed on both sides.
 */
import { z } from 'zod';

/** A BCP 47 tag as Chromium names its dictionaries (`en-US`, `de`, `pt-BR`). */
const languageTag = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);

export const desktopSettingsSchema = z.object({
  /** Closing the window hides it; the app keeps syncing and sending from the tray. */
  close_to_tray: z.boolean(),
  /** The app starts when the user logs in to the computer. */
  start_at_login: z.boolean(),
  /** No desktop notifications from this device. */
  do_not_disturb: z.boolean(),
  /** Spell check in text fields (session.setSpellCheckerEnabled). */
  spellcheck: z.boolean(),
  /** Dictionaries to check against (session.setSpellCheckerLanguages); empty: the system's language. */
  spellcheck_languages: z.array(languageTag).max(10),
});
export type DesktopSettings = z.output<typeof desktopSettingsSchema>;

/** What main answers: the settings, and the spell-check languages this computer has. */
export const desktopSettingsAnswerSchema = desktopSettingsSchema.extend({ available_spellcheck_languages: z.array(z.string()) });
export type DesktopSettingsAnswer = z.output<typeof desktopSettingsAnswerSchema>;

/**
 * A link the operating system gave the app (main/links.ts), as main sends it to the page over
 * IPC_OPEN: a narrow of the open account, or the sign-in screen for a server with no account here.
 */
export const openLinkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('narrow'), hash: z.string().regex(/^#(inbox|narrow\/\S+)$/).max(2000) }),
  z.object({ kind: z.literal('sign_in'), server_url: z.url({ protocol: /^https?$/ }).max(2000) }),
]);
export type OpenLink = z.output<typeof openLinkSchema>;
