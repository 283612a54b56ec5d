/**
 * The desktop app's own settings (Electron only; kept by main/desktop-settings.ts, shown by
 * renderer/src/settings/DesktopApp.tsx), carried over IPC_DESKTOP_SETTINGS and parsed on both sides.
 */
import * as z from 'zod';

/** A BCP 47 tag as Chromium names its dictionaries (`en-US`, `de`, `pt-BR`). */
const languageTag = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);

/** Why `url` cannot be an update feed, in words; undefined when it can. */
export function updateFeedProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the update feed is not a web address';
  }
  if (u.username || u.password) return 'the update feed address may not hold a user name or password';
  if (u.protocol === 'https:') return undefined;
  const loopback = u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(u.hostname);
  if (u.protocol === 'http:' && loopback) return undefined;
  return 'the update feed must be an https:// address (http:// only on this computer, for testing a feed)';
}

/** Where updates come from (main/updater.ts): '' is off, the default. */
const updateFeedUrl = z
  .string()
  .max(2000)
  .superRefine((url, ctx) => {
    const problem = url === '' ? undefined : updateFeedProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

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
  /** The update feed (electron-builder's generic provider: the folder holding latest*.yml); '' turns updates off. */
  update_feed_url: updateFeedUrl,
});
export type DesktopSettings = z.output<typeof desktopSettingsSchema>;

/** What main answers: the settings, and the spell-check languages this computer has. */
export const desktopSettingsAnswerSchema = desktopSettingsSchema.extend({ available_spellcheck_languages: z.array(z.string()) });
export type DesktopSettingsAnswer = z.output<typeof desktopSettingsAnswerSchema>;

/**
 * The updater's state (main/updater.ts), answered over IPC_UPDATE and pushed over IPC_UPDATE_STATUS:
 * off (no feed), not checked yet (idle), checking, up to date, a newer version available, downloading it, downloaded (ready
 * to install: "Restart to update"), installing (the engine closing, then the installer), or an error
 * in words. `current_version` is the running app's.
 */
const current = { current_version: z.string() };
export const updateStatusSchema = z.lazy(() => z.discriminatedUnion('state', [
  z.object({ ...current, state: z.literal('off') }),
  z.object({ ...current, state: z.literal('idle') }),
  z.object({ ...current, state: z.literal('checking') }),
  z.object({ ...current, state: z.literal('up_to_date'), checked_at: z.number() }),
  z.object({ ...current, state: z.literal('available'), version: z.string() }),
  z.object({ ...current, state: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  z.object({ ...current, state: z.literal('downloaded'), version: z.string() }),
  z.object({ ...current, state: z.literal('installing'), version: z.string() }),
  z.object({ ...current, state: z.literal('error'), message: z.string() }),
]));
export type UpdateStatus = z.output<typeof updateStatusSchema>;

/** What the page asks of the updater: its state, a check now, or "Restart to update". */
export const updateRequestSchema = z.object({ action: z.enum(['status', 'check', 'install']) }).strict();
export type UpdateRequest = z.output<typeof updateRequestSchema>;

/**
 * A link the operating system gave the app (main/links.ts), as main sends it to the page over
 * IPC_OPEN: a narrow of the open account, or the sign-in screen for a server with no account here.
 */
export const openLinkSchema = z.lazy(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('narrow'), hash: z.string().regex(/^#(inbox|narrow\/\S+)$/).max(2000) }),
  z.object({ kind: z.literal('sign_in'), server_url: z.url({ protocol: /^https?$/ }).max(2000) }),
]));
export type OpenLink = z.output<typeof openLinkSchema>;
