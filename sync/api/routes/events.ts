/** The event system: docs/zulip-behaviour.md "Register", "Event queues". */
import type { ApiConnection, RequestOptions } from '../core.js';
import { endpoint, operation, responseTable, send } from '../operation.js';
import { emptySuccess } from '../schemas/envelope.js';
import { eventsResponse, parseEvents, type ZulipEvent } from '../schemas/events.js';
import { registerResponse, type RegisterResponse } from '../schemas/register.js';

/**
 * The capabilities this client declares (docs/zulip-behaviour.md "Capabilities"):
 * null notification overrides, bulk deletes, optional avatar URLs, channel typing, the
 * `user_settings` object, deactivated groups as updates, archived channels, and `""` as the
 * empty topic.
 */
export const DEFAULT_CLIENT_CAPABILITIES: Readonly<Record<string, boolean>> = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  include_deactivated_groups: true,
  archived_channels: true,
  empty_topic_name: true,
  /** `presence` events in the modern per-user format (`presences`). */
  simplified_presence_events: true,
};

export interface RegisterQueueArgs {
  /** Which events the queue delivers (e.g. `navigation_view`, `user_group`). Omit for all. */
  readonly event_types?: readonly string[];
  /** Which initial state to return (e.g. `navigation_views`, `realm_user_groups`). Defaults to `event_types` at the server. */
  readonly fetch_event_types?: readonly string[];
  /** Legacy `[[operator, operand]]` filter on received messages only. */
  readonly narrow?: readonly (readonly [string, string])[];
  /** Rendered HTML instead of Markdown in message content. The server's default is false. */
  readonly apply_markdown?: boolean;
  /** `avatar_url: null` for Gravatar users, to compute locally. */
  readonly client_gravatar?: boolean;
  readonly include_subscribers?: boolean | 'partial';
  readonly all_public_streams?: boolean;
  readonly slim_presence?: boolean;
  readonly presence_history_limit_days?: number;
  /** Replaces (does not merge with) `DEFAULT_CLIENT_CAPABILITIES`, which is sent when this is absent. */
  readonly client_capabilities?: Readonly<Record<string, boolean>>;
  /** FL 481: idle lifetime of the queue in seconds, or `"mobile"`. */
  readonly idle_queue_timeout?: number | 'mobile';
}

const register = endpoint({ method: 'POST', path: '/register', schema: registerResponse });

/** POST /register (docs/zulip-behaviour.md "Register"): create an event queue and fetch the initial state the client needs. */
export async function registerQueue(
  conn: ApiConnection,
  args: RegisterQueueArgs = {},
  opts: RequestOptions = {},
): Promise<RegisterResponse> {
  const params = { ...args, client_capabilities: args.client_capabilities ?? DEFAULT_CLIENT_CAPABILITIES };
  const res = await send(conn, register, { params }, opts);
  // The connection learns the server's version, the long-poll deadline (the server's timeout plus a
  // margin; unchanged when `realm` was not fetched) and how the empty topic is displayed.
  conn.noteServerVersion({ featureLevel: res.zulip_feature_level, zulipVersion: res.zulip_version });
  conn.noteLongPollTimeout(res.event_queue_longpoll_timeout_seconds);
  if (res.realm_empty_topic_display_name !== undefined) {
    conn.emptyTopicDisplayName = res.realm_empty_topic_display_name;
  }
  return res;
}

export interface GetEventsResult {
  readonly events: ZulipEvent[];
  readonly queue_id: string | undefined;
}

const events = endpoint({ method: 'GET', path: '/events', schema: eventsResponse });

/**
 * GET /events (docs/zulip-behaviour.md "Event queues"): long-poll for the events after
 * `last_event_id`, acknowledging those up to it.
 */
export async function getEvents(
  conn: ApiConnection,
  args: { queue_id: string; last_event_id: number; dont_block?: boolean },
  opts: RequestOptions = {},
): Promise<GetEventsResult> {
  const params = { queue_id: args.queue_id, last_event_id: args.last_event_id, dont_block: args.dont_block };
  // The deadline is the long-poll one. A garbage-collected queue answers 400
  // `BAD_EVENT_QUEUE_ID`, surfaced as an `api` error: the caller re-registers and resyncs.
  const res = await send(conn, events, { params, longPoll: true }, opts);
  // Each event is classified on its own, so one unknown or malformed event never fails the batch.
  const parsed = parseEvents(res.events);
  // After a restart the server may have been upgraded.
  for (const ev of parsed) {
    if (ev.type === 'restart') {
      conn.noteServerVersion({ featureLevel: ev.zulip_feature_level, zulipVersion: ev.zulip_version });
    }
  }
  return { events: parsed, queue_id: res.queue_id };
}

/** DELETE /events (docs/zulip-behaviour.md "Event queues"): discard a queue we no longer poll (e.g. on logout). */
export const deleteEventQueue = operation({
  method: 'DELETE',
  path: '/events',
  schema: emptySuccess,
  request: (args: { queue_id: string }) => ({ params: { queue_id: args.queue_id } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const eventResponses = responseTable(register, events, deleteEventQueue);
