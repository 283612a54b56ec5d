/** Per-user state events: topic policies, saved snippets, navigation views, scheduled messages, settings, muted users. */
import { parseUserSettingUpdate, type EventOf } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import {
  deleteNavigationView,
  deleteSavedSnippet,
  deleteScheduledMessage,
  getNavigationView,
  putNavigationView,
  putSavedSnippet,
  putScheduledMessage,
  putUserSetting,
  putUserTopic,
} from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';
import { setRealmValue } from '../../db/queries/realm.js';
import { MUTED_USERS_KEY } from '../../outbox/mutations/user-mute.js';

export function onUserTopic(db: LocalDb, e: EventOf<'user_topic'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  putUserTopic(db, e);
  changes.touched('user_topics');
}

export function onMutedUsers(db: LocalDb, e: EventOf<'muted_users'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  setRealmValue(db, MUTED_USERS_KEY, e.muted_users);
  changes.touched('muted_users');
}

export function onSavedSnippets(db: LocalDb, e: EventOf<'saved_snippets'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  if (e.op === 'remove') deleteSavedSnippet(db, e.saved_snippet_id);
  else putSavedSnippet(db, e.saved_snippet);
  changes.touched('saved_snippets');
}

export function onNavigationView(db: LocalDb, e: EventOf<'navigation_view'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('navigation_views');
  switch (e.op) {
    case 'add':
      putNavigationView(db, e.navigation_view);
      return;
    case 'update': {
      const v = getNavigationView(db, e.fragment);
      if (!v) return;
      putNavigationView(db, {
        ...v,
        ...(e.data.name !== undefined ? { name: e.data.name } : {}),
        ...(e.data.is_pinned !== undefined && e.data.is_pinned !== null ? { is_pinned: e.data.is_pinned } : {}),
      });
      return;
    }
    case 'remove':
      deleteNavigationView(db, e.fragment);
      return;
  }
}

export function onScheduledMessages(db: LocalDb, e: EventOf<'scheduled_messages'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('scheduled_messages');
  if (e.op === 'add') for (const m of e.scheduled_messages) putScheduledMessage(db, m);
  else if (e.op === 'update') putScheduledMessage(db, e.scheduled_message);
  else deleteScheduledMessage(db, e.scheduled_message_id);
}

export function onUserSettings(db: LocalDb, e: EventOf<'user_settings'>, ctx: HandlerContext, changes: ChangeCollector): void {
  // Checked against the setting's own type; a value that does not fit is logged, not stored.
  const parsed = parseUserSettingUpdate(e.property, e.value);
  if (parsed === undefined) {
    ctx.logger.warn(`user_settings: value of ${e.property} does not fit; skipped`, e);
    return;
  }
  for (const [k, v] of Object.entries(parsed)) putUserSetting(db, k, v);
  changes.touched('user_settings');
}
