/**
 * Pure: the user's display settings (the engine's `userSettings`, i.e. register's `user_settings`
 * kept current by `user_settings` events) → what the page applies: the theme, the hour format, the
 * base font size and line height, dense mode and fluid width. Values a server sends outside the
 * allowed range are clamped or ignored, never trusted as CSS.
 *
 *   color_scheme              1 automatic (follows the system), 2 dark, 3 light
 *   twenty_four_hour_time     true / false; null (FL 408) the locale's default
 *   web_font_size_px          px (Zulip's default 16); clamped to 10-32
 *   web_line_height_percent   percent (Zulip's default 140); clamped to 100-250
 *   dense_mode                compact spacing (servers before FL 364 only)
 *   fluid_layout_width        the conversation uses the whole width
 */

export type ThemeChoice = 'automatic' | 'dark' | 'light';

export interface DisplaySettings {
  theme: ThemeChoice;
  twentyFourHour: boolean | null;
  /** null: the app's own default (the setting is absent). */
  fontSizePx: number | null;
  lineHeightPercent: number | null;
  dense: boolean;
  fluid: boolean;
  /** `user_list_style` 3, "With avatar and status": the user list shows avatars. */
  userListAvatars: boolean;
}

export const DEFAULT_DISPLAY: DisplaySettings = { theme: 'automatic', twentyFourHour: null, fontSizePx: null, lineHeightPercent: null, dense: false, fluid: false, userListAvatars: false };

export const FONT_SIZE_RANGE = [10, 32] as const;
export const LINE_HEIGHT_RANGE = [100, 250] as const;

const clampInt = (v: unknown, [lo, hi]: readonly [number, number]): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : null;

export function themeChoice(colorScheme: unknown): ThemeChoice {
  if (colorScheme === 2) return 'dark';
  if (colorScheme === 3) return 'light';
  return 'automatic';
}

export function displaySettings(raw: Readonly<Record<string, unknown>> | null): DisplaySettings {
  if (raw === null) return DEFAULT_DISPLAY;
  const t = raw.twenty_four_hour_time;
  return {
    theme: themeChoice(raw.color_scheme),
    twentyFourHour: typeof t === 'boolean' ? t : null,
    fontSizePx: clampInt(raw.web_font_size_px, FONT_SIZE_RANGE),
    lineHeightPercent: clampInt(raw.web_line_height_percent, LINE_HEIGHT_RANGE),
    dense: raw.dense_mode === true,
    fluid: raw.fluid_layout_width === true,
    userListAvatars: raw.user_list_style === 3,
  };
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): 'light' | 'dark' {
  if (choice === 'automatic') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

/** What goes on <html>: data-theme, the dense / fluid classes, and the two base custom properties (null: remove, use the CSS default). */
export interface RootLook {
  theme: 'light' | 'dark';
  dense: boolean;
  fluid: boolean;
  fontSize: string | null;
  lineHeight: string | null;
}

export function rootLook(s: DisplaySettings, systemPrefersDark: boolean): RootLook {
  return {
    theme: resolveTheme(s.theme, systemPrefersDark),
    dense: s.dense,
    fluid: s.fluid,
    fontSize: s.fontSizePx === null ? null : `${s.fontSizePx}px`,
    lineHeight: s.lineHeightPercent === null ? null : String(s.lineHeightPercent / 100),
  };
}

/** Write a look onto the root element (CSSOM only: the CSP allows no inline style attributes). */
export function applyLook(root: HTMLElement, look: RootLook): void {
  root.dataset.theme = look.theme;
  root.classList.toggle('dense', look.dense);
  root.classList.toggle('fluid', look.fluid);
  if (look.fontSize === null) root.style.removeProperty('--font-size-base');
  else root.style.setProperty('--font-size-base', look.fontSize);
  if (look.lineHeight === null) root.style.removeProperty('--line-height-base');
  else root.style.setProperty('--line-height-base', look.lineHeight);
}
