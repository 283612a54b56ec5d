/**
 * Pure: what a device shows for the engine's `notifications` event (sync/engine/notifications.ts
 * decides which messages deserve one). Shown only when the user is not looking at the app (the
 * window has no focus), not in Do Not Disturb, and with the permission to. Several at once became
 * one summary in the engine. Shared by the page (Web Notifications, renderer/src/notifications/)
 * and the Electron main process (main/notify.ts), which also sends a clicked one's target to the
 * page (IPC_OPEN, parsed with `openTargetSchema`).
 */
import * as z from 'zod';
import { notificationItemSchema, type EngineEvent, type NotificationItem } from './commands.js';

export type NotificationsEvent = Extract<EngineEvent, { type: 'notifications' }>;

/** What a click opens: a conversation, or the Inbox for a summary. */
export const openTargetSchema = z.union([notificationItemSchema.shape.target, z.object({ kind: z.literal('inbox') })]);
export type OpenTarget = NotificationItem['target'] | { kind: 'inbox' };

export interface ShownNotification {
  readonly title: string;
  readonly body: string;
  /** Replaces an earlier one with the same tag (the same message, or the summary). */
  readonly tag: string;
  readonly silent: boolean;
  readonly target: OpenTarget;
}

export interface NotifyContext {
  readonly focused: boolean;
  readonly doNotDisturb: boolean;
  readonly permission: 'granted' | 'denied' | 'default' | 'unsupported';
}

function names(senders: readonly string[]): string {
  if (senders.length <= 2) return senders.join(' and ');
  return `${senders.slice(0, 2).join(', ')} and ${senders.length - 2} more`;
}

export function notificationsToShow(e: NotificationsEvent, ctx: NotifyContext): ShownNotification[] {
  if (ctx.focused || ctx.doNotDisturb || ctx.permission !== 'granted') return [];
  if (e.summary !== null) {
    const { count, senders } = e.summary;
    return [{ title: `${count} new messages`, body: `From ${names(senders)}`, tag: 'summary', silent: false, target: { kind: 'inbox' } }];
  }
  return e.items.map((i) => ({ title: i.title, body: i.body, tag: `message-${i.message_id}`, silent: i.silent, target: i.target }));
}
