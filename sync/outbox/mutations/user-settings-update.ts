/**
 * `update_settings`: a map of setting name to new value, as `PATCH /settings` takes it. All
 * settings are one entity: queued updates merge into one map, the last value per key winning.
 */
import * as z from 'zod';
import { updateSettings } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putUserSetting } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import { queues } from '../commands.js';
import { oneCall, withoutBase } from './shared.js';
import { readState } from './read-state.js';

const settingValue = z.lazy(() => z.union([z.string(), z.number(), z.boolean()]));
// Never queued: passwords must not sit in the outbox table, and an email change needs a confirmation.
const notQueued = new Set(['old_password', 'new_password', 'email']);

export const userSettingsArgs = z.lazy(() => z
  .record(z.string(), settingValue)
  .refine((m) => Object.keys(m).length > 0, 'at least one setting')
  .refine((m) => Object.keys(m).every((k) => !notQueued.has(k)), 'contains a setting that is never queued'));
export type UserSettingsArgs = z.output<typeof userSettingsArgs>;

export const userSettingsUpdate = withoutBase({
  kind: 'update_settings',
  version: 1,
  argsSchema: userSettingsArgs,
  // The UI labels the settings from its own table (the link names them).
  describe: (a) => ({ text: 'Change settings', link: { to: 'settings', settings: Object.keys(a) } }),
  entityKey: () => 'user_settings',
  send: oneCall(updateSettings),
  async verify(conn, a) {
    const { user_settings } = await readState(conn, ['user_settings']);
    if (!user_settings) return 'unknown';
    const now: Record<string, unknown> = user_settings;
    return Object.entries(a).every(([k, v]) => now[k] === v) ? 'applied' : 'not_applied';
  },
  coalesce: (prev, next) => {
    if (prev.kind !== 'update_settings') return { action: 'append' };
    const p = userSettingsArgs.safeParse(prev.args);
    return p.success ? { action: 'merge', args: { ...p.data, ...next.args }, base: null } : { action: 'append' };
  },
  local: { apply: (db, a, _b, c) => void applyOptimistic(db, a, c), areas: ['user_settings'], refetch: ['user_settings'] },
});

export function applyOptimistic(db: LocalDb, args: UserSettingsArgs, changes: ChangeCollector): void {
  for (const [k, v] of Object.entries(args)) putUserSetting(db, k, v);
  changes.touched('user_settings');
}

/** The contract's command: setting name → value, as `PATCH /settings` takes them (never passwords or the email). */
export const userSettingsUpdateCommands = {
  updateSettings: queues(userSettingsUpdate, z.lazy(() => z.object({ settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) })), (r) => r.settings),
};
