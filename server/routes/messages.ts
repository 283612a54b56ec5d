/**
 * Messages: send (POST /messages), fetch (GET /messages, GET /messages/{id}), preview rendering
 * and narrow matching; flags and reactions are registered from their own modules.
 */
import * as z from 'zod';
import { badRequest, JsonableError, missingParam } from '../http/errors.js';
import { parseJsonParam } from '../http/json.js';
import type { Params } from '../http/params.js';
import { renderMarkdown } from '../markdown/render.js';
import { escapeHtml } from '../markdown/zulip-syntax.js';
import { getChannel, getChannelByName } from '../model/access.js';
import { fetchByIds, fetchRange, MAX_MESSAGES_PER_FETCH, parseAnchor, type Anchor } from '../model/message-fetch.js';
import { apiMessages, type MessageRow } from '../model/messages.js';
import { sendMessageWithResult, type SendTarget } from '../model/message-send.js';
import { parseNarrow } from '../model/narrow.js';
import { getRealm } from '../model/realm.js';
import { accessMessage } from '../model/reactions.js';
import { highlighter } from '../model/search.js';
import { getUser, getUserByEmail, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { registerMessageFlagRoutes } from './message-flags.js';
import { pathId, route, type ApiRouter } from './context.js';
import { registerReactionRoutes } from './reactions.js';

const intList = z.array(z.number().int());

export function registerMessageRoutes(r: ApiRouter): void {
  route(r, 'POST', '/messages', ({ srv, user, params }) => {
    const type = params.choice('type', ['direct', 'private', 'stream', 'channel'] as const);
    if (type === undefined) throw missingParam('type');
    const toRaw = params.raw('to');
    const content = params.reqStr('content');
    const topic = params.str('topic') ?? params.str('subject');
    const queueId = params.str('queue_id');
    const localId = params.str('local_id');
    const readBySender = params.bool('read_by_sender');
    if (toRaw === undefined) throw missingParam('to');
    if (queueId !== undefined && localId === undefined) throw missingParam('local_id');
    let to: SendTarget;
    if (type === 'stream' || type === 'channel') {
      const channelId = channelFromTo(srv, toRaw);
      if (topic === undefined) throw badRequest('Missing topic');
      to = { channelId, topic };
    } else {
      to = { userIds: dmRecipientsFromTo(srv, toRaw) };
    }
    const sent = sendMessageWithResult(srv, user, { to, content, queueId, localId, autoVisibilityPolicies: true, ...(readBySender === undefined ? {} : { readBySender }) });
    return { id: sent.id, ...(sent.automaticNewVisibilityPolicy === undefined ? {} : { automatic_new_visibility_policy: sent.automaticNewVisibilityPolicy }) };
  });

  route(r, 'GET', '/messages', ({ srv, user, params }) => getMessages(srv, user, params));

  route(r, 'GET', '/messages/matches_narrow', ({ srv, user, params }) => {
    const ids = params.reqJson('msg_ids', intList);
    const narrow = parseNarrow(params.reqJson('narrow', z.unknown()));
    const found = fetchByIds(srv, user, narrow, ids);
    const rows = loadRows(srv, found.ids);
    const messages: Record<string, { match_content: string; match_subject: string }> = {};
    const mark = found.narrow.search ? highlighter(found.narrow.search) : (s: string) => s;
    for (const row of rows) {
      messages[String(row.id)] = { match_content: mark(row.rendered_content, true), match_subject: mark(escapeHtml(row.topic), true) };
    }
    return { messages };
  });

  route(r, 'POST', '/messages/render', ({ srv, user, params }) => {
    const content = params.reqStr('content');
    return { rendered: renderMarkdown(srv, content, { senderId: user.id }).html };
  });

  route(r, 'GET', '/messages/:message_id', ({ srv, user, params, ...ctx }) => {
    const id = pathId({ srv, user, params, ...ctx }, 'message_id');
    const applyMarkdown = params.bool('apply_markdown') ?? true;
    const allowEmptyTopicName = params.bool('allow_empty_topic_name') ?? false;
    const m = accessMessage(srv, user, id);
    const [message] = apiMessages(srv, user.id, [m], { applyMarkdown, clientGravatar: true, allowEmptyTopicName });
    return { raw_content: m.content, message };
  });

  registerMessageFlagRoutes(r);
  registerReactionRoutes(r);
}

/** `to` of a channel message: an id, a raw name, or (legacy) a JSON string or one-element list. */
function channelFromTo(srv: ServerState, raw: string): number {
  const parsed = parseJsonParam('to', raw);
  let data: unknown = parsed.ok ? parsed.value : raw;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw badRequest('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'number' && Number.isSafeInteger(data)) {
    if (!getChannel(srv, data)) throw new JsonableError('STREAM_DOES_NOT_EXIST', `Channel with ID '${data}' does not exist`, 400, { stream_id: data });
    return data;
  }
  if (typeof data !== 'string') throw badRequest('Invalid data type for channel');
  const ch = getChannelByName(srv, data.trim());
  if (!ch) throw new JsonableError('STREAM_DOES_NOT_EXIST', `Channel '${escapeHtml(data.trim())}' does not exist`, 400, { stream: data.trim() });
  return ch.id;
}

/** `to` of a direct message: a JSON list of ids or emails, or a comma-separated email string. */
function dmRecipientsFromTo(srv: ServerState, raw: string): number[] {
  const parsed = parseJsonParam('to', raw);
  let data: unknown = parsed.ok ? parsed.value : raw;
  if (typeof data === 'string') data = data.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (typeof data === 'number') data = [data];
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  if (data.length === 0) throw badRequest('Message must have recipients');
  const users: UserRow[] = [];
  if (data.every((x) => typeof x === 'string')) {
    for (const email of data as string[]) {
      const u = getUserByEmail(srv, email);
      if (!u) throw badRequest(`Invalid email '${email}'`);
      users.push(u);
    }
  } else if (data.every((x) => typeof x === 'number' && Number.isSafeInteger(x))) {
    for (const id of data as number[]) {
      const u = getUser(srv, id);
      if (!u) throw badRequest(`Invalid user ID ${id}`);
      users.push(u);
    }
  } else {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  for (const u of users) if (!u.is_active) throw badRequest(`'${u.email}' is no longer using Zulip.`);
  return users.map((u) => u.id);
}

export function loadRows(srv: ServerState, ids: readonly number[]): MessageRow[] {
  if (ids.length === 0) return [];
  return srv.db.prepare(`SELECT * FROM messages WHERE id IN (${ids.join(',')}) ORDER BY id`).all() as MessageRow[];
}

function getMessages(srv: ServerState, user: UserRow, params: Params): Record<string, unknown> {
  const anchorRaw = params.str('anchor');
  const includeAnchorParam = params.bool('include_anchor');
  const numBefore = params.int('num_before', { min: 0 });
  const numAfter = params.int('num_after', { min: 0 });
  const narrow = parseNarrow(params.json('narrow', z.unknown()));
  const clientGravatar = params.bool('client_gravatar') ?? true;
  const applyMarkdown = params.bool('apply_markdown') ?? true;
  const messageIds = params.json('message_ids', intList);
  const allowEmptyTopicName = params.bool('allow_empty_topic_name') ?? false;
  const useFirstUnread = params.bool('use_first_unread_anchor');
  const opts = { applyMarkdown, clientGravatar, allowEmptyTopicName };

  if (messageIds !== undefined) {
    const given = (
      [
        ['anchor', anchorRaw],
        ['include_anchor', includeAnchorParam],
        ['use_first_unread_anchor', useFirstUnread],
        ['num_before', numBefore],
        ['num_after', numAfter],
      ] as const
    )
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    if (given.length > 0) {
      const parameters = [...given, 'message_ids'].join(', ');
      throw badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
    }
    if (messageIds.length > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    const found = fetchByIds(srv, user, narrow, messageIds);
    return {
      found_newest: false,
      found_oldest: false,
      found_anchor: false,
      history_limited: false,
      messages: present(srv, user, loadRows(srv, found.ids), opts, found.narrow.search),
    };
  }

  if (numBefore === undefined) throw missingParam('num_before');
  if (numAfter === undefined) throw missingParam('num_after');
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  let anchor: Anchor;
  if (useFirstUnread) {
    if (anchorRaw !== undefined) throw badRequest('Unsupported parameter combination: anchor, use_first_unread_anchor', { parameters: 'anchor, use_first_unread_anchor' });
    anchor = 'first_unread';
  } else {
    if (anchorRaw === undefined) throw badRequest("Missing 'anchor' argument.");
    anchor = parseAnchor(anchorRaw);
  }
  const res = fetchRange(srv, user, narrow, { anchor, includeAnchor: includeAnchorParam ?? true, numBefore, numAfter });
  return {
    anchor: res.anchor,
    found_newest: res.foundNewest,
    found_oldest: res.foundOldest,
    found_anchor: res.foundAnchor,
    history_limited: false,
    messages: present(srv, user, res.rows, opts, res.narrow.search),
  };
}

function present(
  srv: ServerState,
  user: UserRow,
  rows: MessageRow[],
  opts: { applyMarkdown: boolean; clientGravatar: boolean; allowEmptyTopicName: boolean },
  search: string | null,
): Array<Record<string, unknown>> {
  const out = apiMessages(srv, user.id, rows, opts);
  if (search === null) return out;
  const emptyName = getRealm(srv).empty_topic_display_name;
  const mark = highlighter(search);
  return out.map((m, i) => {
    const row = rows[i]!;
    const subject = row.topic === '' && row.type === 'stream' && !opts.allowEmptyTopicName ? emptyName : row.topic;
    return { ...m, match_content: mark(row.rendered_content, true), match_subject: mark(escapeHtml(subject), true) };
  });
}

