/**
 * Apply a batch of events to the local store, in order, inside the caller's transaction (which
 * also advances the queue position). Pure database work: no network, no timers.
 *
 * Unknown and malformed events are logged and skipped (never fatal: a newer server's events must
 * not stop the stream). Events the store does not keep (typing, restart, presence, ...) are handed
 * back in the result. A handler that throws is a bug or an impossible state: the error is rethrown
 * as `EventApplyError` naming the event, the caller's transaction rolls back, and the session
 * resyncs from a fresh register.
 */
import type { KnownEvent, ZulipEvent } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import type { ChangeCollector } from '../../db/changes.js';
import { onStream, onSubscription } from './channels.js';
import { onDeleteMessage, onMessage, onReaction, onSubmessage, onUpdateMessageFlags } from './messages.js';
import { onMutedUsers, onNavigationView, onSavedSnippets, onScheduledMessages, onUserSettings, onUserTopic } from './personal.js';
import { onRealm, onRealmEmoji } from './realm.js';
import { onPresence, onUserStatus } from './presence.js';
import { emptyOutput, type ApplyContext, type ApplyOutput, type HandlerContext, type HandlerLogger } from './types.js';
import { onUpdateMessage } from './update-message.js';
import { onRealmUser, onUserGroup } from './users.js';

export type { ApplyContext, ApplyOutput, HandlerLogger } from './types.js';

export class EventApplyError extends Error {
  override readonly name = 'EventApplyError';
  constructor(
    readonly event: ZulipEvent,
    override readonly cause: unknown,
  ) {
    super(`applying ${event.type} event ${event.id ?? '?'} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

const consoleLogger: HandlerLogger = { warn: (message, details) => console.warn(message, details ?? '') };

/** Event types the store keeps nothing of (web-only, or state this client does not show yet). */
const IGNORED = new Set<string>([
  'heartbeat', 'alert_words', 'has_zoom_token', 'onboarding_steps', 'drafts',
  'attachment', 'default_streams', 'channel_folder', 'custom_profile_fields', 'invites_changed', 'reminders', 'device',
  'push_device', 'realm_linkifiers', 'realm_filters', 'realm_playgrounds', 'realm_domains', 'realm_export',
  'realm_export_consent', 'realm_bot', 'realm_user_settings_defaults', 'default_stream_groups', 'muted_topics',
  'update_display_settings', 'update_global_notifications', 'web_reload_client',
]);

function applyOne(db: LocalDb, e: KnownEvent, ctx: HandlerContext, changes: ChangeCollector): void {
  switch (e.type) {
    case 'message': return onMessage(db, e, ctx, changes);
    case 'update_message': return onUpdateMessage(db, e, ctx, changes);
    case 'delete_message': return onDeleteMessage(db, e, ctx, changes);
    case 'update_message_flags': return onUpdateMessageFlags(db, e, ctx, changes);
    case 'reaction': return onReaction(db, e, ctx, changes);
    case 'submessage': return onSubmessage(db, e, ctx, changes);
    case 'typing':
    case 'typing_edit_message':
      ctx.out.typing.push(e);
      changes.touched('typing');
      return;
    case 'user_topic': return onUserTopic(db, e, ctx, changes);
    case 'saved_snippets': return onSavedSnippets(db, e, ctx, changes);
    case 'navigation_view': return onNavigationView(db, e, ctx, changes);
    case 'scheduled_messages': return onScheduledMessages(db, e, ctx, changes);
    case 'user_settings': return onUserSettings(db, e, ctx, changes);
    case 'muted_users': return onMutedUsers(db, e, ctx, changes);
    case 'presence': return onPresence(db, e, ctx, changes);
    case 'user_status': return onUserStatus(db, e, ctx, changes);
    case 'subscription': return onSubscription(db, e, ctx, changes);
    case 'stream': return onStream(db, e, ctx, changes);
    case 'user_group': return onUserGroup(db, e, ctx, changes);
    case 'realm_user': return onRealmUser(db, e, ctx, changes);
    case 'realm': return onRealm(db, e, ctx, changes);
    case 'realm_emoji': return onRealmEmoji(db, e, changes);
    case 'restart':
      ctx.out.restart = e;
      return;
    default:
      if (!IGNORED.has(e.type)) ctx.logger.warn(`no handler for ${e.type} events; skipped`);
  }
}

/** Apply `events` in order; returns what the session needs besides `changes`. */
export function applyEvents(db: LocalDb, events: readonly ZulipEvent[], ctx: ApplyContext, changes: ChangeCollector): ApplyOutput {
  const out = emptyOutput();
  const hctx: HandlerContext = { ...ctx, logger: ctx.logger ?? consoleLogger, out };
  for (const e of events) {
    if (e.type === 'unknown' || e.type === 'malformed') {
      hctx.logger.warn(`skipped ${e.type} event ${e.originalType}${e.type === 'malformed' ? `: ${e.problems.join('; ')}` : ''}`, e.raw);
      out.skipped++;
      continue;
    }
    try {
      applyOne(db, e, hctx, changes);
    } catch (cause) {
      throw new EventApplyError(e, cause);
    }
  }
  return out;
}
