/**
 * The event system (docs/zulip-behaviour.md "Register", "Event queues"): POST /register creates
 * a queue and returns the initial state;
 * GET /events long-polls it (heartbeat after `longPollSeconds`), acknowledging by
 * `last_event_id`; DELETE /events drops it. Unknown or garbage-collected queues answer
 * `BAD_EVENT_QUEUE_ID` with the `queue_id`.
 */
import * as z from 'zod';
import type { ClientCapabilities } from '../events/queues.js';
import { badRequest, invalidParam } from '../http/errors.js';
import type { Params } from '../http/params.js';
import { getRealm } from '../model/realm.js';
import { initialState } from '../model/register.js';
import type { IncludeSubscribers } from '../model/register-channels.js';
import { isGuest } from '../model/users.js';
import type { ServerState } from '../state.js';
import { route, type ApiRouter } from './context.js';

const stringList = z.array(z.string());
const legacyNarrow = z.array(z.tuple([z.string(), z.string()]));
const capabilitiesSchema = z.record(z.string(), z.unknown());

/** Operators Zulip's event-queue narrow filter supports (check_narrow_for_events). */
const EVENT_NARROW_OPERATORS: readonly string[] = ['channel', 'stream', 'topic', 'sender', 'is'];

const KNOWN_CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
] as const;

/** Known capabilities that are `true`; unknown keys are ignored (newer clients send more). */
function readCapabilities(params: Params): ClientCapabilities {
  const raw = params.json('client_capabilities', capabilitiesSchema) ?? {};
  const out: Record<string, boolean> = {};
  for (const k of KNOWN_CAPABILITIES) {
    const v = raw[k];
    if (v !== undefined && typeof v !== 'boolean') throw invalidParam('client_capabilities', JSON.stringify(raw), `client_capabilities.${k} is not a boolean`);
    if (v) out[k] = true;
  }
  return out;
}

/** `include_subscribers`: "true" | "false" | "partial" (FL 412). */
function readIncludeSubscribers(params: Params): IncludeSubscribers {
  const raw = params.str('include_subscribers');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (raw === 'partial') return 'partial';
  throw invalidParam('include_subscribers', raw, "include_subscribers must be 'true', 'false' or 'partial'");
}

/**
 * The queue's message filter (applied by the message sender to each new message). A topic operand
 * equal to the empty-topic display name means "" (spec rule 5).
 */
function readNarrow(srv: ServerState, params: Params): Array<readonly [string, string]> {
  const narrow = params.json('narrow', legacyNarrow) ?? [];
  const display = getRealm(srv).empty_topic_display_name;
  return narrow.map(([operator, operand]) => {
    if (!EVENT_NARROW_OPERATORS.includes(operator)) throw badRequest(`Operator ${operator} not supported.`);
    return [operator, operator === 'topic' && operand.trim() === display ? '' : operand] as const;
  });
}

export function registerEventRoutes(r: ApiRouter): void {
  route(r, 'POST', '/register', ({ srv, user, params }) => {
    const applyMarkdown = params.bool('apply_markdown') ?? false;
    const clientGravatar = params.bool('client_gravatar') ?? true;
    const includeSubscribers = readIncludeSubscribers(params);
    const slimPresence = params.bool('slim_presence') ?? false;
    params.int('presence_history_limit_days', { min: 0 });
    const eventTypes = params.json('event_types', stringList.nullable()) ?? null;
    const fetchEventTypes = params.json('fetch_event_types', stringList.nullable()) ?? eventTypes;
    const allPublicStreams = params.bool('all_public_streams') ?? false;
    const capabilities = readCapabilities(params);
    const narrow = readNarrow(srv, params);
    if (allPublicStreams && isGuest(user)) throw badRequest('User not authorized for this query');

    const state = initialState(srv, user, { fetchEventTypes, capabilities, clientGravatar, includeSubscribers, slimPresence });
    const queue = srv.queues.register(user.id, { eventTypes, capabilities, applyMarkdown, clientGravatar, allPublicStreams, narrow });
    return {
      queue_id: queue.id,
      last_event_id: queue.lastEventId,
      zulip_feature_level: srv.config.featureLevel,
      zulip_version: srv.config.zulipVersion,
      zulip_merge_base: srv.config.zulipVersion,
      ...state,
    };
  });

  route(
    r,
    'GET',
    '/events',
    async ({ srv, user, params, signal }) => {
      const queueId = params.reqStr('queue_id');
      const lastEventId = params.int('last_event_id');
      const dontBlock = params.bool('dont_block') ?? false;
      const events = await srv.queues.poll(queueId, user.id, lastEventId, dontBlock, signal);
      return { events, queue_id: queueId };
    },
    { async: true },
  );

  route(r, 'DELETE', '/events', ({ srv, user, params }) => {
    srv.queues.delete(params.reqStr('queue_id'), user.id);
  });
}
