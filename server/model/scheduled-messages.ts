/**
 * Scheduled messages (docs/zulip-behaviour.md "Scheduled messages"; spec "Edit a
 * scheduled message"): stored with their rendered
 * content, listed by delivery time, delivered by `deliverDueScheduledMessages` through the normal
 * send path. A send that fails (the sender lost access, the channel is gone…) leaves the message
 * `failed: true` until it is rescheduled. Every change reaches the sender's clients as a
 * `scheduled_messages` event (add / update / remove).
 */
import { seconds } from '../clock.js';
import { atomically, emit } from '../events/emit.js';
import { badRequest, JsonableError, notFound } from '../http/errors.js';
import { renderMarkdown } from '../markdown/render.js';
import type { ServerState } from '../state.js';
import { getChannel } from './access.js';
import { notificationBot } from './message-edit.js';
import { checkCanSendToChannel, checkTopicsPolicy, normalizeContent, normalizeTopic, sendMessage } from './message-send.js';
import { getUser, type UserRow } from './users.js';

export interface ScheduledMessageRow {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** JSON: the channel id, or the recipients' user ids as the API shows them. */
  recipient: string;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  read_by_sender: number | null;
  failed: number;
  failure_message: string | null;
  delivered_message_id: number | null;
}

/** A validated addressee: a channel and topic, or direct-message recipients (`to` as the API shows it). */
export type ScheduledTarget = { kind: 'stream'; channelId: number; topic: string } | { kind: 'private'; to: number[] };

/** GET /scheduled_messages objects (legacy `type` values, `topic` only for channel messages). */
export function apiScheduledMessage(row: ScheduledMessageRow) {
  const to = JSON.parse(row.recipient) as number | number[];
  return {
    scheduled_message_id: row.id,
    type: row.type,
    to,
    ...(row.type === 'stream' ? { topic: row.topic } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    failed: row.failed === 1,
  };
}

/** The sender's undelivered scheduled messages, ordered by delivery time (then id). */
export function listScheduledMessages(srv: ServerState, userId: number) {
  const rows = srv.db
    .prepare('SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered_message_id IS NULL ORDER BY scheduled_delivery_timestamp, id')
    .all(userId) as ScheduledMessageRow[];
  return rows.map(apiScheduledMessage);
}

function getRow(srv: ServerState, id: number): ScheduledMessageRow | undefined {
  return srv.db.prepare('SELECT * FROM scheduled_messages WHERE id = ?').get(id) as ScheduledMessageRow | undefined;
}

/**
 * The user's scheduled message, or 404 BAD_REQUEST "Scheduled message does not exist"
 * (docs/zulip-behaviour.md "Scheduled messages").
 */
export function requireScheduledMessage(srv: ServerState, userId: number, id: number): ScheduledMessageRow {
  const row = getRow(srv, id);
  if (!row || row.sender_id !== userId) throw notFound('Scheduled message does not exist');
  return row;
}

export const notInFuture = () => badRequest('Scheduled delivery time must be in the future.');

export function checkDeliveryTime(srv: ServerState, ts: number): void {
  if (ts <= seconds(srv.clock)) throw notInFuture();
}

/**
 * Validates an addressee as sending would (Zulip's check_message): the channel exists
 * (`STREAM_DOES_NOT_EXIST` + `stream_id`), the sender may post there, the topic fits the channel's
 * policy; direct-message recipients exist and are active.
 */
export function resolveTarget(srv: ServerState, sender: UserRow, type: 'stream' | 'private', to: number | number[], topic: string | undefined): ScheduledTarget {
  if (type === 'stream') {
    const ids = Array.isArray(to) ? to : [to];
    if (ids.length !== 1) throw badRequest(ids.length === 0 ? 'Message must have recipients' : 'Cannot send to multiple channels');
    const channelId = ids[0]!;
    const channel = getChannel(srv, channelId);
    if (!channel) throw new JsonableError('STREAM_DOES_NOT_EXIST', `Channel with ID '${channelId}' does not exist`, 400, { stream_id: channelId });
    if (topic === undefined) throw badRequest('Missing topic');
    checkCanSendToChannel(srv, sender, channel);
    const normalized = normalizeTopic(srv, topic);
    checkTopicsPolicy(srv, channel, normalized);
    return { kind: 'stream', channelId, topic: normalized };
  }
  const ids = [...new Set(Array.isArray(to) ? to : [to])];
  if (ids.length === 0) throw badRequest('Message must have recipients');
  for (const id of ids) {
    const u = getUser(srv, id);
    if (!u) throw badRequest(`Invalid user ID ${id}`);
    if (!u.is_active) throw badRequest(`'${u.email}' is no longer using Zulip.`);
  }
  // As Zulip lists them: the other participants, or yourself for a note to self.
  const others = ids.filter((id) => id !== sender.id).sort((a, b) => a - b);
  return { kind: 'private', to: others.length ? others : [sender.id] };
}

function render(srv: ServerState, sender: UserRow, content: string, target: ScheduledTarget): string {
  return renderMarkdown(srv, content, { senderId: sender.id, channelId: target.kind === 'stream' ? target.channelId : undefined }).html;
}

const recipientJson = (t: ScheduledTarget) => JSON.stringify(t.kind === 'stream' ? t.channelId : t.to);

export interface NewScheduledMessage {
  readonly target: ScheduledTarget;
  readonly content: string;
  readonly deliverAt: number;
  readonly readBySender?: boolean | undefined;
}

export function createScheduledMessage(srv: ServerState, sender: UserRow, m: NewScheduledMessage): number {
  const content = normalizeContent(srv, m.content);
  const info = srv.db
    .prepare(
      `INSERT INTO scheduled_messages (sender_id, type, recipient, topic, content, rendered_content, scheduled_delivery_timestamp, read_by_sender)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      sender.id,
      m.target.kind,
      recipientJson(m.target),
      m.target.kind === 'stream' ? m.target.topic : '',
      content,
      render(srv, sender, content, m.target),
      m.deliverAt,
      m.readBySender === undefined ? null : m.readBySender ? 1 : 0,
    );
  const id = Number(info.lastInsertRowid);
  emit(srv, [sender.id], { type: 'scheduled_messages', op: 'add', scheduled_messages: [apiScheduledMessage(getRow(srv, id)!)] });
  return id;
}

export interface ScheduledMessageChanges {
  readonly target?: ScheduledTarget | undefined;
  readonly content?: string | undefined;
  readonly deliverAt?: number | undefined;
}

/** Applies validated changes; a new delivery time clears `failed`. */
export function updateScheduledMessage(srv: ServerState, sender: UserRow, row: ScheduledMessageRow, ch: ScheduledMessageChanges): void {
  const content = ch.content === undefined ? row.content : normalizeContent(srv, ch.content);
  const target = ch.target ?? storedTarget(row);
  const rendered = ch.content === undefined && ch.target === undefined ? row.rendered_content : render(srv, sender, content, target);
  srv.db
    .prepare(
      `UPDATE scheduled_messages SET type = ?, recipient = ?, topic = ?, content = ?, rendered_content = ?, scheduled_delivery_timestamp = ?,
         failed = ?, failure_message = ? WHERE id = ?`,
    )
    .run(
      target.kind,
      recipientJson(target),
      target.kind === 'stream' ? target.topic : '',
      content,
      rendered,
      ch.deliverAt ?? row.scheduled_delivery_timestamp,
      ch.deliverAt === undefined ? row.failed : 0,
      ch.deliverAt === undefined ? row.failure_message : null,
      row.id,
    );
  emit(srv, [sender.id], { type: 'scheduled_messages', op: 'update', scheduled_message: apiScheduledMessage(getRow(srv, row.id)!) });
}

/** The stored addressee, as stored (not re-validated: delivery checks it again). */
export function storedTarget(row: ScheduledMessageRow): ScheduledTarget {
  const to = JSON.parse(row.recipient) as number | number[];
  if (row.type === 'private') return { kind: 'private', to: Array.isArray(to) ? to : [to] };
  return { kind: 'stream', channelId: Array.isArray(to) ? to[0]! : to, topic: row.topic };
}

export function deleteScheduledMessage(srv: ServerState, userId: number, id: number): void {
  const row = requireScheduledMessage(srv, userId, id);
  if (row.delivered_message_id !== null) throw notFound('Scheduled message does not exist');
  srv.db.prepare('DELETE FROM scheduled_messages WHERE id = ?').run(id);
  emit(srv, [userId], { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
}

/**
 * Sends every undelivered, not-failed message whose time has come (by the server's clock), each
 * in its own transaction. A delivered message leaves the list (`remove` event); one that cannot be
 * sent is marked `failed` (`update` event). Returns how many were delivered.
 */
export function deliverDueScheduledMessages(srv: ServerState): number {
  const due = srv.db
    .prepare(
      'SELECT * FROM scheduled_messages WHERE delivered_message_id IS NULL AND failed = 0 AND scheduled_delivery_timestamp <= ? ORDER BY scheduled_delivery_timestamp, id',
    )
    .all(seconds(srv.clock)) as ScheduledMessageRow[];
  let delivered = 0;
  for (const row of due) {
    try {
      atomically(srv, () => deliverOne(srv, row));
      delivered++;
    } catch (e) {
      if (!(e instanceof JsonableError)) srv.log.error(`scheduled message ${row.id} could not be sent`, e);
      const reason = e instanceof Error ? e.message : String(e);
      atomically(srv, () => markFailed(srv, row, reason));
      try {
        atomically(srv, () => notifyFailure(srv, row, reason));
      } catch (notifyError) {
        srv.log.error(`could not notify the sender of scheduled message ${row.id}`, notifyError);
      }
    }
  }
  return delivered;
}

function deliverOne(srv: ServerState, row: ScheduledMessageRow): void {
  const sender = getUser(srv, row.sender_id);
  if (!sender || !sender.is_active) throw badRequest('Account is deactivated');
  const target = storedTarget(row);
  const messageId = sendMessage(srv, sender, {
    to: target.kind === 'stream' ? { channelId: target.channelId, topic: target.topic } : { userIds: target.to },
    content: row.content,
    readBySender: row.read_by_sender === null ? undefined : row.read_by_sender === 1,
  });
  srv.db.prepare('UPDATE scheduled_messages SET delivered_message_id = ? WHERE id = ?').run(messageId, row.id);
  emit(srv, [sender.id], { type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.id });
}

/**
 * Zulip's send_failed_scheduled_message_notification: the Notification Bot tells the sender
 * (a direct message) which message was not sent and why.
 */
function notifyFailure(srv: ServerState, row: ScheduledMessageRow, reason: string): void {
  const sender = getUser(srv, row.sender_id);
  if (!sender || !sender.is_active) return;
  const when = new Date(row.scheduled_delivery_timestamp * 1000).toISOString().replace('.000Z', '+00:00');
  const content = [
    `The message you scheduled for <time:${when}> was not sent because of the following error:`,
    `> ${reason}`,
    '[View scheduled messages](#scheduled)',
  ].join('\n\n');
  sendMessage(srv, notificationBot(srv), { to: { userIds: [sender.id] }, content, readBySender: true });
}

function markFailed(srv: ServerState, row: ScheduledMessageRow, reason: string): void {
  srv.db.prepare('UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?').run(reason, row.id);
  emit(srv, [row.sender_id], { type: 'scheduled_messages', op: 'update', scheduled_message: apiScheduledMessage(getRow(srv, row.id)!) });
}
