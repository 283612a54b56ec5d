/**
 * Personal settings tables that the reference server checks (PATCH /settings) and the settings
 * screen offers: the language table and the whole-number settings' bounds.
 */

/** Language codes with translations (as Zulip servers offer them), by their own names: the server's `language_name`. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'العربية',
  bg: 'български',
  ca: 'català',
  cs: 'čeština',
  da: 'dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  en_GB: 'British English',
  es: 'español',
  fa: 'فارسی',
  fi: 'suomi',
  fr: 'français',
  gl: 'galego',
  hi: 'हिंदी',
  hu: 'magyar',
  id: 'Bahasa Indonesia',
  it: 'italiano',
  ja: '日本語',
  ko: '한국어',
  lt: 'lietuvių',
  nl: 'Nederlands',
  pl: 'polski',
  pt: 'português',
  pt_BR: 'português (Brasil)',
  ro: 'română',
  ru: 'русский',
  sk: 'slovenčina',
  sr: 'српски',
  sv: 'svenska',
  ta: 'தமிழ்',
  tr: 'Türkçe',
  uk: 'українська',
  vi: 'Tiếng Việt',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
};

/** Whole-number bounds (Zulip's web app bounds for the information-density settings; one week of batching). */
export const USER_SETTING_RANGES = {
  web_font_size_px: { min: 12, max: 20 },
  web_line_height_percent: { min: 122, max: 158 },
  email_notifications_batching_period_seconds: { min: 1, max: 7 * 24 * 60 * 60 },
} as const satisfies Readonly<Record<string, { readonly min: number; readonly max: number }>>;

/** A setting's bounds, or undefined when it has none. */
export function settingRange(name: string): { readonly min: number; readonly max: number } | undefined {
  return Object.hasOwn(USER_SETTING_RANGES, name) ? USER_SETTING_RANGES[name as keyof typeof USER_SETTING_RANGES] : undefined;
}
