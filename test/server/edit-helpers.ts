/** Helpers for the edits-area conformance tests: seed messages, register queues, read rows. */
import { atomically } from '../../server/events/emit.js';
import type { Event } from '../../server/events/queues.js';
import { sendMessage } from '../../server/model/message-send.js';
import { setRealmSettings, type RealmSettings } from '../../server/model/realm.js';
import { getUser } from '../../server/model/users.js';
import { pendingEvents, registerQueue } from './events-helpers.js';
import type { TestServer } from './harness.js';

export const FULL_CAPABILITIES = {
  bulk_message_deletion: true,
  empty_topic_name: true,
  stream_typing_notifications: true,
  user_settings_object: true,
};

import { channelId } from './harness.js';
export { channelId };

/** Sends a channel message as `who` (through the model, optionally backdated by `ageSeconds`). */
export function post(t: TestServer, who: string, channel: string, topic: string, content: string, ageSeconds = 0): number {
  const srv = t.server.state;
  const sender = getUser(srv, t.userId(who))!;
  const dateSent = Math.floor(t.clock.now() / 1000) - ageSeconds;
  return atomically(srv, () => sendMessage(srv, sender, { to: { channelId: channelId(t, channel), topic }, content, dateSent }));
}

/** Sends a direct message as `who` to the named users. */
export function dm(t: TestServer, who: string, to: readonly string[], content: string, ageSeconds = 0): number {
  const srv = t.server.state;
  const sender = getUser(srv, t.userId(who))!;
  const dateSent = Math.floor(t.clock.now() / 1000) - ageSeconds;
  return atomically(srv, () => sendMessage(srv, sender, { to: { userIds: to.map((n) => t.userId(n)) }, content, dateSent }));
}

export function realm(t: TestServer, changes: Partial<RealmSettings>): void {
  atomically(t.server.state, () => setRealmSettings(t.server.state, changes));
}

export interface MessageState {
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  last_edit_timestamp: number | null;
  last_moved_timestamp: number | null;
  edit_history: string | null;
}

export function row(t: TestServer, id: number): MessageState | undefined {
  return t.server.state.db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as MessageState | undefined;
}

export function history(t: TestServer, id: number): Array<Record<string, unknown>> {
  const raw = row(t, id)?.edit_history;
  return raw ? (JSON.parse(raw) as Array<Record<string, unknown>>) : [];
}

export function flagsOf(t: TestServer, who: string, id: number): number | undefined {
  return t.server.state.db.prepare('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').pluck().get(t.userId(who), id) as number | undefined;
}

/** A queue for `who` with every capability this area cares about (or the ones given). */
export async function queue(t: TestServer, who: string, capabilities: Record<string, boolean> = FULL_CAPABILITIES, extra: Record<string, string | boolean> = {}) {
  const id = await registerQueue(t, who, { client_capabilities: capabilities, ...extra });
  return {
    async events(type?: string): Promise<Event[]> {
      const all = await pendingEvents(t, who, id);
      return type ? all.filter((e) => e.type === type) : all;
    },
  };
}

const seedEnd = new WeakMap<TestServer, number>();

/** Remembers the last seeded message, so the tests' own notices can be told from the demo content's. */
export function markSeedEnd(t: TestServer): void {
  seedEnd.set(t, (t.server.state.db.prepare('SELECT COALESCE(MAX(id), 0) FROM messages').pluck().get() as number) ?? 0);
}

/** The Notification Bot's messages in a channel sent after markSeedEnd, oldest first. */
export function botMessages(t: TestServer, channel: string): Array<{ id: number; topic: string; content: string }> {
  return t.server.state.db
    .prepare(
      `SELECT m.id, m.topic, m.content FROM messages m JOIN users u ON u.id = m.sender_id
       WHERE u.email = 'notification-bot@zulip.com' AND m.channel_id = ? AND m.id > ? ORDER BY m.id`,
    )
    .all(channelId(t, channel), seedEnd.get(t) ?? 0) as Array<{ id: number; topic: string; content: string }>;
}

let topicCounter = 0;
/** A topic name no seed uses, so counts and notices in tests only see the test's own messages. */
export const freshTopic = (base = 'edit test') => `${base} ${++topicCounter}`;

/** Stores a channel-level permission (channels.permissions JSON) as a system group. */
export function channelPermission(t: TestServer, channel: string, setting: string, systemGroup: string): void {
  const db = t.server.state.db;
  const groupId = db.prepare('SELECT id FROM user_groups WHERE name = ? AND is_system_group = 1').pluck().get(systemGroup);
  const raw = db.prepare('SELECT permissions FROM channels WHERE id = ?').pluck().get(channelId(t, channel)) as string;
  const perms = JSON.parse(raw) as Record<string, unknown>;
  perms[setting] = groupId;
  db.prepare('UPDATE channels SET permissions = ? WHERE id = ?').run(JSON.stringify(perms), channelId(t, channel));
}

export function systemGroup(t: TestServer, name: string): number {
  return t.server.state.db.prepare('SELECT id FROM user_groups WHERE name = ? AND is_system_group = 1').pluck().get(name) as number;
}
