/**
 * The personal settings screen's model: every parameter the spec's "PATCH /settings" section names
 * has a control of the right kind with the spec's allowed values (read from the spec file itself, so
 * a parameter added there and missing here fails); tabs and groups; select choices; what the user
 * picked as a typed value; a setting's "not saved yet" / failed state from the outbox rows; the
 * account forms' checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutboxChange, OutboxRowOf } from '../../../sync/outbox/registry.js';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import {
  ACCOUNT_FIELDS,
  choicesFor,
  controlOf,
  currentValue,
  durationWords,
  emailChange,
  groupsOf,
  nameChange,
  parseInput,
  passwordChange,
  SETTING_CONTROLS,
  settingLabel,
  settingMark,
  settingParameters,
  SETTINGS_TABS,
  soundLabel,
  tabOf,
  type SettingControl,
} from '../../../renderer/src/settings/settings-model.js';
import { outboxRow } from '../fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/**
 * The team's spec: TEAM_CHAT_SPEC, beside the repository (`../shared`), a worktree level up, or the
 * workplace's `/work/shared` (where the OpenAPI example tests read too, so a fresh clone anywhere finds it).
 */
const SPEC = [process.env['TEAM_CHAT_SPEC'], path.resolve(ROOT, '../shared/spec/team-chat-api.md'), path.resolve(ROOT, '../../shared/spec/team-chat-api.md'), '/work/shared/spec/team-chat-api.md'].find(
  (p): p is string => p !== undefined && existsSync(p),
);

interface SpecParam {
  name: string;
  type: string;
  rules: string;
}

/** The parameters of the spec's PATCH /settings section: its tables' rows and the Notifications list. */
function specParameters(text: string): SpecParam[] {
  const start = text.indexOf('### PATCH /settings');
  if (start < 0) throw new Error('no "### PATCH /settings" section in the spec');
  const end = text.indexOf('\n### ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const out: SpecParam[] = [];
  for (const line of section.split('\n')) {
    const row = /^\|\s*([a-z_0-9]+)\s*\|\s*([a-z]+)\s*\|\s*(.*)\|\s*$/.exec(line);
    if (row) out.push({ name: row[1]!, type: row[2]!, rules: row[3]!.trim() });
    if (line.startsWith('Notifications')) {
      // `name` or `name` (string, ...) / (integer, ...); the rest are boolean.
      for (const m of line.matchAll(/`([a-z_0-9]+)`(?:\s*\((string|integer)[^)]*\))?/g)) out.push({ name: m[1]!, type: m[2] ?? 'boolean', rules: '' });
    }
  }
  return out;
}

/** The allowed values a spec row states: backticked strings, or "1 automatic, 2 dark" integers (an explicit "allowed set is" wins). */
function allowedValues(p: SpecParam): Array<string | number> | null {
  if (p.type === 'string') {
    const v = [...p.rules.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    return v.length > 0 ? v : null;
  }
  if (p.type === 'integer') {
    const stated = /allowed set is ([\d, ]+)/.exec(p.rules);
    if (stated) return stated[1]!.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
    const v = [...p.rules.matchAll(/(?:^|, )(\d+) [a-zA-Z]/g)].map((m) => Number(m[1]));
    return v.length > 0 ? v : null;
  }
  return null;
}

// Never skipped: without the spec this check would silently prove nothing.
describe('every PATCH /settings parameter of the spec has a control', () => {
  it('finds the spec', () => expect(SPEC, 'the spec file (set TEAM_CHAT_SPEC)').toBeDefined());
  const params = SPEC === undefined ? [] : specParameters(readFileSync(SPEC, 'utf8'));

  it('reads the whole section (account, display and behaviour, notifications)', () => {
    // A parser that found nothing would pass everything below.
    expect(params.length).toBeGreaterThanOrEqual(50);
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['full_name', 'new_password', 'color_scheme', 'desktop_icon_count_display', 'notification_sound', 'enable_followed_topic_wildcard_mentions_notify']));
  });

  it('each one is offered by the screen', () => {
    const offered = new Set(settingParameters());
    expect(params.map((p) => p.name).filter((n) => !offered.has(n))).toEqual([]);
  });

  it('each control is of the right kind, with the allowed values the spec states', () => {
    const account = new Set<string>(ACCOUNT_FIELDS.map((f) => f.name));
    for (const p of params) {
      if (account.has(p.name)) continue;
      const c = controlOf(p.name);
      expect(c, p.name).toBeDefined();
      const control = c as SettingControl;
      if (p.type === 'boolean') {
        expect(control.kind, p.name).toBe('switch');
        continue;
      }
      const allowed = allowedValues(p);
      if (allowed) {
        expect(control.kind, p.name).toBe('select');
        expect(choicesFor(control, {}, { timeZones: [] }).map((x) => x.value), p.name).toEqual(allowed);
        continue;
      }
      const expected: Record<string, string> = {
        timezone: 'timezone',
        default_language: 'language',
        notification_sound: 'sound',
        email_notifications_batching_period_seconds: 'duration',
        web_font_size_px: 'number',
        web_line_height_percent: 'number',
      };
      expect(control.kind, p.name).toBe(expected[p.name]);
    }
  });

  it('the spec’s numbers in words: web_channel_default_view offers 1, 2 and 4 only', () => {
    expect(choicesFor(controlOf('web_channel_default_view')!, {}, { timeZones: [] })).toEqual([
      { value: 1, label: 'Top topic in the channel' },
      { value: 2, label: 'Channel feed' },
      { value: 4, label: 'Top unread topic in the channel' },
    ]);
    expect(choicesFor(controlOf('color_scheme')!, {}, { timeZones: [] }).map((c) => c.label)).toEqual(['Automatic (follow the system)', 'Dark', 'Light']);
  });
});

describe('tabs and groups', () => {
  it('#settings alone and an unknown tab open the first tab', () => {
    expect(tabOf([])).toBe('account-and-privacy');
    expect(tabOf(['nonsense'])).toBe('account-and-privacy');
    expect(tabOf(['preferences'])).toBe('preferences');
    expect(tabOf(['notifications', 'x'])).toBe('notifications');
  });

  it('every control is in exactly one group of one tab, names and labels unique', () => {
    const shown = SETTINGS_TABS.flatMap((t) => groupsOf(t.id).flatMap((g) => g.controls.map((c) => c.name)));
    expect(shown.sort()).toEqual(SETTING_CONTROLS.map((c) => c.name).sort());
    expect(new Set(shown).size).toBe(shown.length);
    const labels = [...SETTING_CONTROLS.map((c) => c.label), ...ACCOUNT_FIELDS.map((f) => f.label)];
    expect(new Set(labels).size).toBe(labels.length);
    expect(groupsOf('preferences').map((g) => g.group)).toEqual(['General', 'Emoji', 'Navigation', 'Sidebars']);
  });

  it('names settings in words for other screens', () => {
    expect(settingLabel('color_scheme')).toBe('Theme');
    expect(settingLabel('new_password')).toBe('New password');
    expect(settingLabel('some_future_setting')).toBe('some_future_setting');
  });
});

describe('choices and values', () => {
  const tz = controlOf('timezone')!;
  const sound = controlOf('notification_sound')!;
  const batching = controlOf('email_notifications_batching_period_seconds')!;

  it('time zones from the runtime, "not set" first, an unknown current one kept', () => {
    const zones = ['America/New_York', 'Europe/Berlin'];
    expect(choicesFor(tz, { timezone: 'Europe/Berlin' }, { timeZones: zones }).map((c) => c.value)).toEqual(['', 'America/New_York', 'Europe/Berlin']);
    expect(choicesFor(tz, { timezone: 'Asia/Kolkata' }, { timeZones: zones }).at(-1)).toEqual({ value: 'Asia/Kolkata', label: 'Asia/Kolkata (set elsewhere)' });
    expect(choicesFor(tz, {}, { timeZones: zones })[1]).toEqual({ value: 'America/New_York', label: 'America/New York' });
  });

  it('sounds the server offers, and none', () => {
    expect(choicesFor(sound, { notification_sound: 'ding', available_notification_sounds: ['chime-short', 'ding'] }, { timeZones: [] })).toEqual([
      { value: 'chime-short', label: 'Chime short' },
      { value: 'ding', label: 'Ding' },
      { value: 'none', label: 'None' },
    ]);
    // Without the server's list, the current sound is still there.
    expect(choicesFor(sound, { notification_sound: 'zulip' }, { timeZones: [] }).map((c) => c.value)).toEqual(['none', 'zulip']);
    expect(soundLabel('none')).toBe('None');
  });

  it('a batching period no choice names is listed in words', () => {
    expect(choicesFor(batching, { email_notifications_batching_period_seconds: 120 }, { timeZones: [] })).toHaveLength(8);
    expect(choicesFor(batching, { email_notifications_batching_period_seconds: 7200 }, { timeZones: [] }).at(-1)).toEqual({ value: 7200, label: '2 hours' });
    expect(durationWords(60)).toBe('1 minute');
    expect(durationWords(90)).toBe('90 seconds');
    expect(durationWords(1209600)).toBe('2 weeks');
  });

  it('languages by code with their own names', () => {
    const langs = choicesFor(controlOf('default_language')!, { default_language: 'de' }, { timeZones: [] });
    expect(langs).toContainEqual({ value: 'de', label: 'Deutsch (de)' });
    expect(langs).toContainEqual({ value: 'en', label: 'English (en)' });
  });

  it('the FL 454 home view name shows as Recent conversations', () => {
    const home = controlOf('web_home_view')!;
    expect(currentValue(home, { web_home_view: 'recent' })).toBe('recent_topics');
    expect(choicesFor(home, { web_home_view: 'recent' }, { timeZones: [] }).map((c) => c.value)).toEqual(['recent_topics', 'inbox', 'all_messages']);
  });

  it('parses what the user picked into the setting’s type', () => {
    const scheme = controlOf('color_scheme')!;
    const choices = choicesFor(scheme, {}, { timeZones: [] });
    expect(parseInput(scheme, '2', choices)).toEqual({ ok: true, value: 2 });
    expect(parseInput(scheme, '5', choices)).toMatchObject({ ok: false });
    const anim = controlOf('web_animate_image_previews')!;
    expect(parseInput(anim, 'on_hover', choicesFor(anim, {}, { timeZones: [] }))).toEqual({ ok: true, value: 'on_hover' });
    const clock = controlOf('twenty_four_hour_time')!;
    expect(parseInput(clock, true, [])).toEqual({ ok: true, value: true });
    expect(parseInput(clock, 'true', [])).toMatchObject({ ok: false });
    expect(parseInput(batching, '3600', choicesFor(batching, {}, { timeZones: [] }))).toEqual({ ok: true, value: 3600 });
  });

  it('font size and line spacing stay within their bounds', () => {
    const font = controlOf('web_font_size_px')!;
    expect(font).toMatchObject({ kind: 'number', min: 12, max: 20 });
    expect(parseInput(font, '18', [])).toEqual({ ok: true, value: 18 });
    for (const bad of ['11', '21', '16.5', '', 'big']) expect(parseInput(font, bad, [])).toEqual({ ok: false, error: 'Font size must be a whole number from 12 to 20 px.' });
    const line = controlOf('web_line_height_percent')!;
    expect(parseInput(line, '140', [])).toEqual({ ok: true, value: 140 });
    expect(parseInput(line, '200', [])).toMatchObject({ ok: false });
  });
});

describe('a setting’s state in the outbox', () => {
  const row = (id: number, state: OutboxRowView['state'], args: Record<string, string | number | boolean> | null, over: Partial<Omit<OutboxRowView, 'kind' | 'args'>> = {}): OutboxRowOf =>
    outboxRow({ outbox_id: id, kind: 'update_settings', target: 'user_settings', state, args, created_at: 1, updated_at: 1, ...over });
  const other = (change: OutboxChange): OutboxRowOf => outboxRow({ outbox_id: 9, target: 'x', created_at: 1, updated_at: 1, ...change });
  const error = { kind: 'api', code: 'BAD_REQUEST', message: 'Invalid notification sound', details: null };

  it('pending while a row carrying it waits; nothing once done, discarded or for other settings', () => {
    expect(settingMark([row(1, 'queued', { color_scheme: 2 })], 'color_scheme')).toEqual({ status: 'pending', outboxId: 1 });
    expect(settingMark([row(1, 'retry_wait', { color_scheme: 2 })], 'color_scheme')).toEqual({ status: 'pending', outboxId: 1 });
    expect(settingMark([row(1, 'queued', { color_scheme: 2 })], 'emojiset')).toBeNull();
    expect(settingMark([row(1, 'done', { color_scheme: 2 }), row(2, 'discarded', { color_scheme: 3 })], 'color_scheme')).toBeNull();
    // Another kind's row never carries a setting, whatever its args name.
    expect(settingMark([other({ kind: 'create_saved_snippet', args: { tmp_id: 'tmp-1', title: 'color_scheme', content: 'x' } })], 'title')).toBeNull();
    expect(settingMark([other({ kind: 'update_user_topic', args: null })], 'color_scheme')).toBeNull();
    // A row whose args the engine could not read carries none.
    expect(settingMark([row(1, 'queued', null)], 'color_scheme')).toBeNull();
  });

  it('failed with the server’s words and the other settings the row carries, before a newer pending one', () => {
    const rows = [row(3, 'failed', { notification_sound: 'bell', enable_sounds: true }, { last_error: error }), row(4, 'queued', { notification_sound: 'ding' })];
    expect(settingMark(rows, 'notification_sound')).toEqual({ status: 'failed', outboxId: 3, message: 'Invalid notification sound', others: ['enable_sounds'] });
    expect(settingMark(rows, 'enable_sounds')).toEqual({ status: 'failed', outboxId: 3, message: 'Invalid notification sound', others: ['notification_sound'] });
    expect(settingMark([row(5, 'failed', { emojiset: 'text' })], 'emojiset')).toMatchObject({ status: 'failed', message: 'The server did not take this change.' });
  });
});

describe('the account forms', () => {
  it('a name: trimmed, not blank, not the same', () => {
    expect(nameChange('Hamlet', '  Prince Hamlet ')).toEqual({ ok: true, request: { full_name: 'Prince Hamlet' } });
    expect(nameChange('Hamlet', '   ')).toEqual({ ok: false, error: 'Enter a name.' });
    expect(nameChange('Hamlet', 'Hamlet')).toMatchObject({ ok: false });
  });

  it('an email: an address, not the current one', () => {
    expect(emailChange('hamlet@example.com', 'prince@example.com')).toEqual({ ok: true, request: { email: 'prince@example.com' } });
    expect(emailChange('hamlet@example.com', 'HAMLET@example.com')).toMatchObject({ ok: false });
    expect(emailChange('hamlet@example.com', 'not an address')).toEqual({ ok: false, error: 'Enter an email address.' });
  });

  it('a password: the current one, and the new one twice', () => {
    expect(passwordChange('old', 'new-one', 'new-one')).toEqual({ ok: true, request: { old_password: 'old', new_password: 'new-one' } });
    expect(passwordChange('', 'new-one', 'new-one')).toEqual({ ok: false, error: 'Enter your current password.' });
    expect(passwordChange('old', '', '')).toEqual({ ok: false, error: 'Enter a new password.' });
    expect(passwordChange('old', 'new-one', 'new-two')).toEqual({ ok: false, error: 'The new password and its repetition differ.' });
  });
});
