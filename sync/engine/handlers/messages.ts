/**
 * Message events other than edits: new messages, deletions, flag changes, reactions and
 * submessages. An event about a message we do not cache changes nothing (it is not ours to hold).
 */
import type { EventOf } from '../../api/index.js';
import { FLAG, type FlagName } from '../../db/flags.js';
import type { LocalDb } from '../../db/open.js';
import { deleteMessages, getStoredMessage, updateStoredMessage, upsertMessages } from '../../db/queries/messages.js';
import { noteDmDeletions } from '../../db/queries/recent-dms.js';
import { channelsListingMaxIds, invalidateServerTopics } from '../../db/queries/server-topics.js';
import { changeFlagWithRow, setFlagOnAll } from '../../db/queries/message-rows.js';
import { addServerUnreadBits, dmKeyOfIds, forgetAllServerUnreads, forgetServerUnreads, noteMessageFlags, putServerUnread, setServerStarred } from '../../db/queries/unreads.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';
import { withoutLocalCopy } from '../../outbox/mutations/submessage-send.js';

export function onMessage(db: LocalDb, e: EventOf<'message'>, ctx: HandlerContext, changes: ChangeCollector): void {
  // The event's flags are already copied onto the message by the schema; a message event means
  // the server made us a per-user row.
  upsertMessages(db, [e.message], changes, { personal: true });
  // Cached now, so its own bits count (unreads.ts): a `server_unreads` / `server_starred` row for it
  // would never be read, and writing one per new message was most of a burst's extra writes.
  if (e.local_message_id !== undefined) ctx.out.localEchoes.push({ local_message_id: e.local_message_id, message_id: e.message.id });
}

export function onDeleteMessage(db: LocalDb, e: EventOf<'delete_message'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  // A stored topic list naming a deleted message as a topic's newest may list an emptied topic.
  const lists = channelsListingMaxIds(db, e.message_ids);
  if (e.message_type === 'stream' && e.stream_id !== undefined) lists.push(e.stream_id);
  deleteMessages(db, e.message_ids, changes);
  if (lists.length > 0) {
    invalidateServerTopics(db, lists);
    changes.touched('channel_topics');
  }
  if (e.message_type === 'private') {
    noteDmDeletions(db, e.message_ids);
    changes.touched('dm_conversations');
  }
}

export function onUpdateMessageFlags(db: LocalDb, e: EventOf<'update_message_flags'>, ctx: HandlerContext, changes: ChangeCollector): void {
  if (!(e.flag in FLAG)) {
    ctx.logger.warn(`update_message_flags: unknown flag ${e.flag}; skipped`);
    return;
  }
  const bit = FLAG[e.flag as FlagName];
  const set = e.op === 'add';
  // Every message an event names has a per-user row now: changing a flag of channel history the
  // user did not receive creates a (historical) row on the server.
  // `all` (deprecated) is "every message" and only meaningful for read.
  const ids = set && e.all && bit === FLAG.read ? setFlagOnAll(db, bit) : changeFlagWithRow(db, e.messages, bit, set);
  for (const id of ids) changes.messageUpdated(id);
  if (bit === FLAG.read && ids.length > 0) changes.touched('unread');
  noteServerFlags(db, e, bit, ctx.selfUserId, changes);
}

/** The server's unread and starred sets follow flag events, cached messages or not (unreads.ts). */
function noteServerFlags(db: LocalDb, e: EventOf<'update_message_flags'>, bit: number, selfUserId: number, changes: ChangeCollector): void {
  const set = e.op === 'add';
  if (bit === FLAG.starred) {
    setServerStarred(db, e.messages, set);
    changes.touched('unread');
    return;
  }
  if (bit !== FLAG.read) {
    addServerUnreadBits(db, e.messages, bit, set);
    return;
  }
  changes.touched('unread');
  if (set) {
    if (e.all) forgetAllServerUnreads(db);
    else forgetServerUnreads(db, e.messages);
    return;
  }
  // Marked unread: where the message is comes with the event (`message_details`), else from the cache.
  const details = e.op === 'remove' ? e.message_details : undefined;
  for (const id of e.messages) {
    const d = details?.[String(id)];
    const mention = d?.mentioned === true ? FLAG.mentioned : 0;
    if (d?.type === 'stream' && d.stream_id !== undefined && d.topic !== undefined) putServerUnread(db, id, { channel_id: d.stream_id, topic: d.topic }, mention);
    else if (d?.type === 'private' && d.user_ids !== undefined) putServerUnread(db, id, { dm_key: dmKeyOfIds(d.user_ids, selfUserId) }, mention);
    else {
      const m = getStoredMessage(db, id);
      if (m) noteMessageFlags(db, m);
    }
  }
}

export function onReaction(db: LocalDb, e: EventOf<'reaction'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  const same = (r: { emoji_code: string; reaction_type: string; user_id: number }) =>
    r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type && r.user_id === e.user_id;
  updateStoredMessage(
    db,
    e.message_id,
    (m) => {
      const has = m.reactions.some(same);
      if (e.op === 'add') {
        if (has) return undefined;
        const r = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id };
        return { ...m, reactions: [...m.reactions, r] };
      }
      return has ? { ...m, reactions: m.reactions.filter((r) => !same(r)) } : undefined;
    },
    changes,
  );
}

export function onSubmessage(db: LocalDb, e: EventOf<'submessage'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  updateStoredMessage(
    db,
    e.message_id,
    (m) => {
      if (m.submessages.some((s) => s.id === e.submessage_id)) return undefined;
      const s = { msg_type: e.msg_type, content: e.content, message_id: e.message_id, sender_id: e.sender_id, id: e.submessage_id };
      // The server's copy of a pending interaction replaces its local copy (outbox send_submessage).
      return { ...m, submessages: [...withoutLocalCopy(m.submessages, s), s].sort((a, b) => a.id - b.id) };
    },
    changes,
  );
}
