/**
 * Example conformance: every response example Zulip's OpenAPI description documents for an
 * operation in `responseSchemaTable` goes through `classifyResponse`, the one place the client
 * turns an HTTP answer into data or an error.
 *
 *   2xx examples      must parse with the operation's schema (`ok: true`).
 *   4xx / 5xx         must land in the right member of the error union, with code and typed details.
 *   GET /events       every event example must go through `parseEvent` without throwing or becoming
 *                     `malformed`, and an event type `parseEvent` knows must never come back `unknown`.
 *
 * The only departure from "check every example as written" is the `EXCLUDED` list below: one
 * precise entry per example, keyed by operation, status and the example's JSON pointer (see
 * `openapi-examples.ts`), with a one-line reason. An entry either skips the example or, with a
 * `complete` object, checks it after adding fields the documentation left out (which must be
 * absent from the example: a completion can add, never override).
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { classifyResponse } from '../../../sync/api/classify.js';
import type { ApiErrorCodeWithDetails } from '../../../sync/api/error-details.js';
import { responseSchemaTable } from '../../../sync/api/routes/index.js';
import { parseEvent, type KnownEventType } from '../../../sync/api/schemas/events.js';
import {
  collectArrayItemExamples,
  collectOperationExamples,
  findOperation,
  isRecord,
  loadOpenApi,
  parseOpenApi,
  splitOperationKey,
  type CollectedExample,
} from './openapi-examples.js';

// ---------------------------------------------------------------------------------------------
// The one exclusion list: [operation, status, example pointer, one-line reason, complete?].
// ---------------------------------------------------------------------------------------------

/** openapi-generator writes an `example` beside every generated schema, typed but meaningless. */
const PLACEHOLDER = 'openapi-generator placeholder, not a documented example: result ""';
/** Checked with `id` added (see `complete`), so the rest of the payload is still verified. */
const NO_EVENT_ID = 'doc example omits the event `id` every queued event carries (notes §6)';
const ABBREVIATED_MESSAGE_EVENT =
  'abbreviated illustrative message event (no subject/is_me_message/reactions/submessages/flags); the full message event example is oneOf_10';

const EVENT = '#/components/schemas/get_events_200_response_allOf_events_inner_';

type Exclusion = readonly [
  operation: string,
  status: string,
  example: string,
  reason: string,
  complete?: Readonly<Record<string, unknown>>,
];

const EXCLUDED: readonly Exclusion[] = [
  ['POST /fetch_api_key', '200', '#/components/schemas/ApiKeyResponse/example', PLACEHOLDER],
  ['POST /users/me/subscriptions', '200', '#/components/schemas/subscribe_200_response/example', PLACEHOLDER],
  ['POST /users/me/subscriptions', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /users/me/subscriptions', '200', '#/components/schemas/get_subscriptions_200_response/example', PLACEHOLDER],
  ['DELETE /users/me/subscriptions', '200', '#/components/schemas/unsubscribe_200_response/example', PLACEHOLDER],
  ['GET /messages/{message_id}/read_receipts', '200', '#/components/schemas/get_read_receipts_200_response/example', PLACEHOLDER],
  ['GET /streams', '200', '#/components/schemas/get_streams_200_response/example', PLACEHOLDER],
  ['GET /streams/{stream_id}/members', '200', '#/components/schemas/get_subscribers_200_response/example', PLACEHOLDER],
  ['POST /register', '200', '#/components/schemas/register_queue_200_response/example', PLACEHOLDER],
  ['GET /events', '200', '#/components/schemas/get_events_200_response/example', PLACEHOLDER],
  ['DELETE /events', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /invites', '200', '#/components/schemas/send_invites_200_response/example', PLACEHOLDER],
  ['POST /invites', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /messages/{message_id}', '200', '#/components/schemas/update_message_200_response/example', PLACEHOLDER],
  ['PATCH /messages/{message_id}', '400', '#/components/schemas/update_message_400_response_oneOf/example', PLACEHOLDER],
  ['PATCH /messages/{message_id}', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /messages/{message_id}', '200', '#/components/schemas/get_message_200_response/example', PLACEHOLDER],
  ['GET /messages', '200', '#/components/schemas/get_messages_200_response/example', PLACEHOLDER],
  ['POST /messages', '200', '#/components/schemas/send_message_200_response/example', PLACEHOLDER],
  ['POST /messages', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /messages/flags', '200', '#/components/schemas/update_message_flags_200_response/example', PLACEHOLDER],
  ['POST /messages/flags/narrow', '200', '#/components/schemas/update_message_flags_for_narrow_200_response/example', PLACEHOLDER],
  ['POST /mark_topic_as_read', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /users/me/muted_users/{muted_user_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /users/me/muted_users/{muted_user_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /users/me/status', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /users/me/presence', '200', '#/components/schemas/update_presence_200_response/example', PLACEHOLDER],
  ['GET /messages/{message_id}/history', '200', '#/components/schemas/get_message_history_200_response/example', PLACEHOLDER],
  ['POST /typing', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /typing', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /messages/{message_id}/typing', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /messages/{message_id}/reactions', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /messages/{message_id}/reactions', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /messages/{message_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /streams/{stream_id}/delete_topic', '200', '#/components/schemas/mark_all_as_read_200_response/example', PLACEHOLDER],
  ['POST /streams/{stream_id}/delete_topic', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /navigation_views', '200', '#/components/schemas/get_navigation_views_200_response/example', PLACEHOLDER],
  ['POST /navigation_views', '200', '#/components/schemas/add_navigation_view_200_response/example', PLACEHOLDER],
  ['POST /navigation_views', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /navigation_views/{fragment}', '200', '#/components/schemas/add_navigation_view_200_response/example', PLACEHOLDER],
  ['PATCH /navigation_views/{fragment}', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /navigation_views/{fragment}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['DELETE /navigation_views/{fragment}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /navigation_views/{fragment}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /users/me/apns_device_token', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /users/me/apns_device_token', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /mobile_push/e2ee/test_notification', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /mobile_push/e2ee/test_notification', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /mobile_push/e2ee/test_notification', '403', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /mobile_push/e2ee/test_notification', '502', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /saved_snippets', '200', '#/components/schemas/get_saved_snippets_200_response/example', PLACEHOLDER],
  ['POST /saved_snippets', '200', '#/components/schemas/create_saved_snippet_200_response/example', PLACEHOLDER],
  ['POST /saved_snippets', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /saved_snippets/{saved_snippet_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['PATCH /saved_snippets/{saved_snippet_id}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['DELETE /saved_snippets/{saved_snippet_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /saved_snippets/{saved_snippet_id}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /scheduled_messages', '200', '#/components/schemas/get_scheduled_messages_200_response/example', PLACEHOLDER],
  ['POST /scheduled_messages', '200', '#/components/schemas/create_scheduled_message_200_response/example', PLACEHOLDER],
  ['POST /scheduled_messages', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /scheduled_messages/{scheduled_message_id}', '200', '#/components/schemas/update_scheduled_message_200_response/example', PLACEHOLDER],
  ['PATCH /scheduled_messages/{scheduled_message_id}', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['PATCH /scheduled_messages/{scheduled_message_id}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['DELETE /scheduled_messages/{scheduled_message_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['DELETE /scheduled_messages/{scheduled_message_id}', '404', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /server_settings', '200', '#/components/schemas/get_server_settings_200_response/example', PLACEHOLDER],
  ['PATCH /user_groups/{user_group_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['PATCH /user_groups/{user_group_id}', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['POST /user_groups/{user_group_id}/members', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /user_groups/{user_group_id}/deactivate', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['GET /user_groups', '200', '#/components/schemas/get_user_groups_200_response/example', PLACEHOLDER],
  ['POST /user_topics', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['GET /users', '200', '#/components/schemas/get_users_200_response/example', PLACEHOLDER],
  ['GET /users/me', '200', '#/components/schemas/get_own_user_200_response/example', PLACEHOLDER],
  ['POST /users', '200', '#/components/schemas/create_user_200_response/example', PLACEHOLDER],
  ['POST /users', '400', '#/components/schemas/CodedError/example', PLACEHOLDER],
  ['GET /users/me/alert_words', '200', '#/components/schemas/get_alert_words_200_response/example', PLACEHOLDER],
  ['POST /users/me/alert_words', '200', '#/components/schemas/add_alert_words_200_response/example', PLACEHOLDER],
  ['DELETE /users/me/alert_words', '200', '#/components/schemas/remove_alert_words_200_response/example', PLACEHOLDER],
  ['GET /users/me/{stream_id}/topics', '200', '#/components/schemas/get_stream_topics_200_response/example', PLACEHOLDER],
  ['GET /realm/emoji', '200', '#/components/schemas/get_custom_emoji_200_response/example', PLACEHOLDER],
  ['GET /realm/linkifiers', '200', '#/components/schemas/get_linkifiers_200_response/example', PLACEHOLDER],
  ['GET /user_uploads/{realm_id_str}/{filename}', '200', '#/components/schemas/get_file_temporary_url_200_response/example', PLACEHOLDER],
  ['GET /attachments', '200', '#/components/schemas/get_attachments_200_response/example', PLACEHOLDER],
  ['DELETE /attachments/{attachment_id}', '200', '#/components/schemas/JsonSuccess/example', PLACEHOLDER],
  ['POST /user_uploads', '200', '#/components/schemas/upload_file_200_response/example', PLACEHOLDER],
  ['GET /events', '200', `${EVENT}oneOf_58/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_69/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_70/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_71/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_72/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_73/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_74/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_75/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_76/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_77/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_78/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_79/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_80/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_81/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', `${EVENT}oneOf_82/example`, NO_EVENT_ID, { id: 0 }],
  ['GET /events', '200', '#/components/schemas/get_events_200_response/allOf/1/example/events/0', ABBREVIATED_MESSAGE_EVENT],
  ['GET /events', '200', '#/components/schemas/get_events_200_response/allOf/1/example/events/1', ABBREVIATED_MESSAGE_EVENT],
];

/** Table keys the reference file does not describe (it is the FL 420 copy): [key, reason]. */
const ABSENT_FROM_OPENAPI: ReadonlyArray<readonly [operation: string, reason: string]> = [
  ['PATCH /realm', 'a referenced operation the normalised FL 420 file omits (routes/realm.ts follows the server code)'],
];

/**
 * Floors on the examples actually checked, measured with all 17 route modules (50 / 45 / 88); a
 * walker that stops finding examples, or an exclusion list that swallows them, fails the summary.
 */
const MIN_SUCCESS_EXAMPLES = 48;
const MIN_ERROR_EXAMPLES = 43;
const MIN_EVENT_EXAMPLES = 85;

/**
 * Every event type `parseEvent` knows. Typed against `events.ts`, so a type added there or removed
 * without updating this record is a compile error. Examples of these types must parse as themselves.
 */
const KNOWN_EVENT_TYPES: Record<KnownEventType, true> = {
  message: true,
  update_message: true,
  delete_message: true,
  typing: true,
  typing_edit_message: true,
  update_message_flags: true,
  reaction: true,
  submessage: true,
  user_topic: true,
  saved_snippets: true,
  navigation_view: true,
  scheduled_messages: true,
  reminders: true,
  user_settings: true,
  muted_users: true,
  alert_words: true,
  has_zoom_token: true,
  onboarding_steps: true,
  drafts: true,
  attachment: true,
  subscription: true,
  stream: true,
  default_streams: true,
  channel_folder: true,
  user_group: true,
  realm_user: true,
  user_status: true,
  presence: true,
  custom_profile_fields: true,
  realm: true,
  invites_changed: true,
  heartbeat: true,
  restart: true,
  device: true,
  push_device: true,
  realm_emoji: true,
  realm_linkifiers: true,
  realm_filters: true,
  realm_playgrounds: true,
  realm_domains: true,
  realm_export: true,
  realm_export_consent: true,
  realm_bot: true,
  realm_user_settings_defaults: true,
  default_stream_groups: true,
  muted_topics: true,
  update_display_settings: true,
  update_global_notifications: true,
  web_reload_client: true,
};

/** The event types the engine relies on (docs/zulip-behaviour.md "Events"): they must be known. */
const HANDLED_EVENT_TYPES: readonly string[] = [
  'message',
  'update_message',
  'delete_message',
  'typing',
  'typing_edit_message',
  'update_message_flags',
  'user_topic',
  'saved_snippets',
  'navigation_view',
  'scheduled_messages',
  'reminders',
  'user_settings',
  'subscription',
  'stream',
  'user_group',
  'realm_user',
  'heartbeat',
  'restart',
];

/**
 * Codes whose envelopes carry typed `details`. Typed against `error-details.ts`, so adding or
 * removing a code there without updating this record is a compile error.
 */
const CODES_WITH_DETAILS: Record<ApiErrorCodeWithDetails, true> = {
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: true,
  INVITATION_FAILED: true,
  STREAM_DOES_NOT_EXIST: true,
  EXPECTATION_MISMATCH: true,
  BAD_NARROW: true,
  BAD_EVENT_QUEUE_ID: true,
  REQUEST_VARIABLE_MISSING: true,
  REQUEST_VARIABLE_INVALID: true,
  REQUEST_CONFUSING_VAR: true,
  CANNOT_DEACTIVATE_GROUP_IN_USE: true,
  CHANNEL_ALREADY_EXISTS: true,
};

// ---------------------------------------------------------------------------------------------
// Planning: which examples run, which are excluded or completed (at collection time, once).
// ---------------------------------------------------------------------------------------------

const NOW_MS = 1_700_000_000_000;
const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const EVENTS_OP = 'GET /events';

const doc = loadOpenApi();
const table: ReadonlyArray<readonly [string, z.ZodType]> = Object.entries(responseSchemaTable);
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

const exclusionKey = (operation: string, status: string, pointer: string) => `${operation} ${status} ${pointer}`;
const exclusions = new Map(EXCLUDED.map((e) => [exclusionKey(e[0], e[1], e[2]), e]));
/** Exclusion key → the example value as documented, for the bookkeeping checks. */
const usedExclusions = new Map<string, unknown>();
/** Completions that would override a documented field (not allowed). */
const overridingCompletions: string[] = [];

interface Planned {
  readonly operation: string;
  readonly status: string;
  readonly index: number;
  readonly example: CollectedExample;
  /** The value checked: the example, plus the fields of its exclusion entry's `complete`. */
  readonly value: unknown;
  readonly completed: readonly string[];
}

interface Counts {
  success: number;
  error: number;
  events: number;
  excluded: number;
  completed: number;
}

const counts = new Map<string, Counts>();
const success: Planned[] = [];
const failure: Planned[] = [];
const eventExamples: Planned[] = [];
const partialFound: Array<Omit<Planned, 'value' | 'completed'>> = [];

function countsOf(operation: string): Counts {
  let c = counts.get(operation);
  if (!c) {
    c = { success: 0, error: 0, events: 0, excluded: 0, completed: 0 };
    counts.set(operation, c);
  }
  return c;
}

/** The example as it is to be checked, or undefined when its exclusion entry skips it. */
function plan(operation: string, status: string, index: number, example: CollectedExample): Planned | undefined {
  const key = exclusionKey(operation, status, example.pointer);
  const entry = exclusions.get(key);
  if (!entry) return { operation, status, index, example, value: example.value, completed: [] };
  usedExclusions.set(key, example.value);
  const complete = entry[4];
  if (!complete) {
    countsOf(operation).excluded++;
    return undefined;
  }
  const documented = isRecord(example.value) ? example.value : {};
  const overridden = Object.keys(complete).filter((k) => hasOwn(documented, k));
  if (overridden.length > 0) overridingCompletions.push(`${key}: ${overridden.join(', ')}`);
  countsOf(operation).completed++;
  return { operation, status, index, example, value: { ...documented, ...complete }, completed: Object.keys(complete) };
}

for (const [operation] of table) {
  const c = countsOf(operation);
  if (!findOperation(doc, operation)) continue;
  for (const { status, examples, partial } of collectOperationExamples(doc, operation)) {
    examples.forEach((example, index) => {
      const p = plan(operation, status, index, example);
      if (!p) return;
      if (/^2\d\d$/.test(status)) {
        success.push(p);
        c.success++;
      } else {
        failure.push(p);
        c.error++;
      }
    });
    partial.forEach((example, index) => partialFound.push({ operation, status, index, example }));
  }
}

const eventsInTable = table.some(([k]) => k === EVENTS_OP);
if (eventsInTable) {
  const isEvent = (v: unknown) => isRecord(v) && 'type' in v;
  const { examples, partial } = collectArrayItemExamples(doc, EVENTS_OP, '200', 'events', isEvent);
  examples.forEach((example, index) => {
    const p = plan(EVENTS_OP, '200', index, example);
    if (!p) return;
    eventExamples.push(p);
    countsOf(EVENTS_OP).events++;
  });
  partial.forEach((example, index) => partialFound.push({ operation: EVENTS_OP, status: '200 events[]', index, example }));
}

/** `POST /invites 400 #0 INVITATION_FAILED (components/schemas/...)`: operation, status, index, what, where. */
function label(p: Omit<Planned, 'value' | 'completed'> & { completed?: readonly string[] }, what?: string): string {
  const where = p.example.pointer.replace(/^#\//, '');
  const plus = p.completed?.length ? ` +${p.completed.join('+')}` : '';
  const tags = [p.example.name, what].filter((t) => t !== undefined && t !== '').join(' ');
  return `${p.operation} ${p.status} #${p.index}${tags ? ` ${tags}` : ''} (${where})${plus}`;
}

function ctxOf(operation: string) {
  const { method, path } = splitOperationKey(operation);
  return { method: method.toUpperCase(), path };
}

function schemaOf(operation: string): z.ZodType {
  const row = table.find(([k]) => k === operation);
  if (!row) throw new Error(`no schema for ${operation}`);
  return row[1];
}

function classify(p: Planned, httpStatus: number) {
  return classifyResponse(
    ctxOf(p.operation),
    { status: httpStatus, headers: JSON_HEADERS, body: JSON.stringify(p.value) },
    schemaOf(p.operation),
    NOW_MS,
  );
}

function extrasOf(v: unknown): Record<string, unknown> {
  if (!isRecord(v)) return {};
  const { result: _r, msg: _m, code: _c, ...rest } = v;
  return rest;
}

// ---------------------------------------------------------------------------------------------

describe('OpenAPI examples: 2xx bodies parse with the operation schema', () => {
  for (const p of success) {
    it(label(p), () => {
      const res = classify(p, 200);
      if (!res.ok) {
        const detail = res.error.kind === 'malformed' ? res.error.problems.join('\n  ') : res.error.message;
        expect.fail(`${p.operation}: the documented ${p.status} example is rejected (reached via ${p.example.route}):\n  ${detail}`);
      }
      expect(res.ok).toBe(true);
    });
  }
});

describe('OpenAPI examples: 4xx/5xx bodies classify into the right error', () => {
  for (const p of failure) {
    const documentedCode = isRecord(p.value) && typeof p.value.code === 'string' ? p.value.code : '(no code)';
    it(label(p, documentedCode), () => {
      const status = Number(p.status);
      expect(Number.isInteger(status), `status key ${p.status} is not a concrete HTTP status`).toBe(true);
      const body = isRecord(p.value) ? p.value : {};
      const code = typeof body.code === 'string' ? body.code : undefined;
      const res = classify(p, status);
      expect(res.ok).toBe(false);
      if (res.ok) return;
      const e = res.error;

      if (status === 429 || code === 'RATE_LIMIT_HIT') {
        expect(e.kind).toBe('rate_limited');
        if (e.kind !== 'rate_limited') return;
        expect(e.httpStatus).toBe(status);
        const ra = body['retry-after'];
        if (typeof ra === 'number') expect(e.retryAfterMs).toBe(Math.round(ra * 1000));
        return;
      }
      if (status === 401) {
        expect(e.kind).toBe('unauthorized');
        if (e.kind !== 'unauthorized') return;
        expect(e.httpStatus).toBe(401);
        expect(e.code).toBe(code ?? 'UNAUTHORIZED');
        return;
      }
      if (status >= 500) {
        expect(e.kind).toBe('server');
        if (e.kind !== 'server') return;
        expect(e.httpStatus).toBe(status);
        expect(e.code).toBe(code);
        return;
      }
      expect(e.kind).toBe('api');
      if (e.kind !== 'api') return;
      expect(e.httpStatus).toBe(status);
      expect(e.code).toBe(code ?? 'BAD_REQUEST');
      const extra = extrasOf(body);
      expect(e.extra).toEqual(extra);
      if (code !== undefined && hasOwn(CODES_WITH_DETAILS, code)) {
        expect(e.details, `${code}: typed details rejected the documented extra fields ${JSON.stringify(extra)}`).toBeDefined();
        const details: Record<string, unknown> = { ...e.details };
        expect(details.code).toBe(code);
        for (const [field, value] of Object.entries(extra)) {
          expect(details[field], `details.${field}`).toEqual(value);
        }
      } else {
        expect(e.details).toBeUndefined();
      }
    });
  }
});

describe('OpenAPI examples: GET /events event variants go through parseEvent', () => {
  it('GET /events is in the response-schema table', () => {
    expect(eventsInTable).toBe(true);
  });
  for (const p of eventExamples) {
    const raw = p.value;
    const type = isRecord(raw) && typeof raw.type === 'string' ? raw.type : '?';
    const op = isRecord(raw) && typeof raw.op === 'string' ? ` ${raw.op}` : '';
    it(label(p, `${type}${op}`), () => {
      let parsed: { type: string; problems?: unknown };
      try {
        parsed = parseEvent(structuredClone(raw));
      } catch (err) {
        expect.fail(`parseEvent threw on the documented ${type} event: ${String(err)}`);
      }
      if (parsed.type === 'malformed') {
        expect.fail(`documented ${type}${op} event parsed as malformed: ${JSON.stringify(parsed.problems)}`);
      }
      if (hasOwn(KNOWN_EVENT_TYPES, type)) {
        expect(parsed.type, `${type}${op} is a known event type, so its documented example must not be unknown`).toBe(type);
      }
    });
  }
});

describe('OpenAPI examples: bookkeeping', () => {
  it('every table key is an operation of the OpenAPI file (or listed as absent, with a reason)', () => {
    const absent = new Map(ABSENT_FROM_OPENAPI);
    const missing = table.map(([k]) => k).filter((k) => !findOperation(doc, k) && !absent.has(k));
    expect(missing, 'operation keys not found in the OpenAPI file (typo in a route module?)').toEqual([]);
    for (const [k, reason] of ABSENT_FROM_OPENAPI) {
      expect(reason.trim(), `${k}: reason`).not.toBe('');
      expect(findOperation(doc, k), `${k} is listed as absent but the OpenAPI file has it`).toBeUndefined();
      expect(absent.has(k) && table.some(([t]) => t === k), `${k} is listed as absent but is not in the table`).toBe(true);
    }
  });

  it('every exclusion names an example the walker found for a table operation (none stale, none twice)', () => {
    const stale = EXCLUDED.filter(([op, st, ex]) => !usedExclusions.has(exclusionKey(op, st, ex)));
    expect(stale).toEqual([]);
    expect(exclusions.size).toBe(EXCLUDED.length);
    for (const [, , , reason] of EXCLUDED) expect(reason.trim()).not.toBe('');
  });

  it('every example excluded as a generator placeholder really is one (result "")', () => {
    const notPlaceholders = EXCLUDED.filter(([op, st, ex, reason]) => {
      const value = usedExclusions.get(exclusionKey(op, st, ex));
      return reason === PLACEHOLDER && !(isRecord(value) && value.result === '');
    });
    expect(notPlaceholders).toEqual([]);
  });

  it('completions only add fields the documented example lacks', () => {
    expect(overridingCompletions).toEqual([]);
  });

  it('every example on a composition branch is a whole body (no partial example silently skipped)', () => {
    expect(partialFound.map((p) => `${label(p)}: ${JSON.stringify(p.example.value).slice(0, 120)}`)).toEqual([]);
  });

  it('the event types the engine relies on are known to parseEvent', () => {
    expect(HANDLED_EVENT_TYPES.filter((t) => !hasOwn(KNOWN_EVENT_TYPES, t))).toEqual([]);
  });

  it('summary: examples checked and excluded, above the measured floor', () => {
    const total = (f: keyof Counts) => [...counts.values()].reduce((n, c) => n + c[f], 0);
    const rows = [...counts].map(
      ([op, c]) =>
        `  ${op.padEnd(50)} 2xx ${String(c.success).padStart(2)}  err ${String(c.error).padStart(2)}` +
        `${c.events ? `  events ${c.events}` : ''}  excluded ${c.excluded}${c.completed ? `  completed ${c.completed}` : ''}`,
    );
    console.info(
      [
        `OpenAPI example conformance: ${success.length} success, ${failure.length} error and ${eventExamples.length} event ` +
          `examples checked (${total('completed')} of them completed); ${total('excluded')} excluded`,
        ...rows,
      ].join('\n'),
    );
    expect(success.length).toBeGreaterThanOrEqual(MIN_SUCCESS_EXAMPLES);
    expect(failure.length).toBeGreaterThanOrEqual(MIN_ERROR_EXAMPLES);
    expect(eventExamples.length).toBeGreaterThanOrEqual(MIN_EVENT_EXAMPLES);
  });
});

// ---------------------------------------------------------------------------------------------
// The walker itself, on a tiny inline spec.
// ---------------------------------------------------------------------------------------------

const TINY = `
openapi: 3.0.1
paths:
  /things/{id}:
    get:
      responses:
        "200":
          $ref: "#/components/responses/ThingOk"
        "400":
          content:
            application/json:
              schema:
                oneOf:
                - $ref: "#/components/schemas/CodedError"
                - allOf:
                  - $ref: "#/components/schemas/CodedError"
                  example: { result: error, msg: deep, code: NESTED }
                - allOf:
                  - allOf:
                    - example: { result: error, msg: deeper, code: NESTED_TWICE }
              examples:
                named:
                  value: { result: error, msg: named, code: NAMED }
                byRef:
                  $ref: "#/components/examples/Shared"
        "404":
          content:
            application/json:
              schema:
                allOf:
                - $ref: "#/components/schemas/CodedError"
                example: { code: BAD_REQUEST, msg: gone }
    post:
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Loop"
              example: { result: success, msg: media }
  /events:
    get:
      responses:
        "200":
          content:
            application/json:
              schema:
                allOf:
                - $ref: "#/components/schemas/Base"
                - properties:
                    events:
                      type: array
                      items:
                        $ref: "#/components/schemas/Event"
                  example: { result: success, msg: "", events: [{ type: heartbeat, id: 7 }] }
components:
  responses:
    ThingOk:
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/ThingBody"
  examples:
    Shared:
      value: { result: error, msg: shared, code: SHARED }
  schemas:
    Base:
      properties:
        result: { type: string }
    CodedError:
      allOf:
      - $ref: "#/components/schemas/Base"
      example: { result: "", msg: "", code: "" }
    ThingBody:
      allOf:
      - $ref: "#/components/schemas/Base"
      - example: { result: success, msg: "", thing: { id: 1 } }
        properties:
          thing:
            $ref: "#/components/schemas/Thing"
      - example: { thing: { id: 2 } }
      example: { result: "", msg: "", thing: { id: 0 } }
    Thing:
      example: { id: 99 }
      properties:
        id: { type: integer }
    Loop:
      allOf:
      - $ref: "#/components/schemas/Loop"
      - example: { result: success, msg: loop }
    Event:
      oneOf:
      - example: { type: heartbeat, id: 0 }
      - $ref: "#/components/schemas/TypingEvent"
      - allOf:
        - $ref: "#/components/schemas/Base"
        - example: { type: reaction, op: add, id: 0 }
      - example: { not_an_event: true }
    TypingEvent:
      example: { type: typing, op: start, id: 0 }
`;

describe('OpenAPI example walker (inline spec)', () => {
  const tiny = parseOpenApi(TINY);
  const byStatus = (key: string) => new Map(collectOperationExamples(tiny, key).map((s) => [s.status, s]));
  const pointers = (xs: readonly CollectedExample[]) => xs.map((x) => x.pointer).sort();

  it('follows a response $ref into components/responses, then the schema $ref, allOf branches and the root example', () => {
    const ok = byStatus('GET /things/{id}').get('200');
    expect(pointers(ok?.examples ?? [])).toEqual([
      '#/components/schemas/ThingBody/allOf/1/example',
      '#/components/schemas/ThingBody/example',
    ]);
    // The allOf branch example without `result` is not a body; the field-level Thing example is never reached.
    expect(pointers(ok?.partial ?? [])).toEqual(['#/components/schemas/ThingBody/allOf/2/example']);
    const real = ok?.examples.find((e) => e.pointer.endsWith('allOf/1/example'));
    expect(real?.value).toEqual({ result: 'success', msg: '', thing: { id: 1 } });
    expect(real?.route).toBe('responses/200 > $ref ThingOk > schema > $ref ThingBody > allOf[1]');
  });

  it('descends oneOf and nested allOf, collects media-type examples (also by $ref), once per pointer', () => {
    const bad = byStatus('GET /things/{id}').get('400');
    expect(pointers(bad?.examples ?? [])).toEqual([
      '#/components/examples/Shared/value',
      '#/components/schemas/CodedError/example',
      '#/paths/~1things~1{id}/get/responses/400/content/application~1json/examples/named/value',
      '#/paths/~1things~1{id}/get/responses/400/content/application~1json/schema/oneOf/1/example',
      '#/paths/~1things~1{id}/get/responses/400/content/application~1json/schema/oneOf/2/allOf/0/allOf/0/example',
    ]);
    expect(bad?.examples.find((e) => e.name === 'byRef')?.value).toEqual({ result: 'error', msg: 'shared', code: 'SHARED' });
    expect(bad?.partial).toEqual([]);
  });

  it('keeps an example attached to the response schema itself even without `result`', () => {
    const gone = byStatus('GET /things/{id}').get('404');
    expect(gone?.examples.map((e) => e.value)).toContainEqual({ code: 'BAD_REQUEST', msg: 'gone' });
  });

  it('survives a $ref cycle and still finds the examples on it', () => {
    const post = byStatus('POST /things/{id}').get('200');
    expect(post?.examples.map((e) => e.value)).toEqual([
      { result: 'success', msg: 'media' },
      { result: 'success', msg: 'loop' },
    ]);
  });

  it('finds operations by exact path template and method only', () => {
    expect(findOperation(tiny, 'GET /things/{id}')).toBeDefined();
    expect(findOperation(tiny, 'PATCH /things/{id}')).toBeUndefined();
    expect(findOperation(tiny, 'GET /things/{thing_id}')).toBeUndefined();
    expect(() => collectOperationExamples(tiny, 'GET /nope')).toThrow(/no operation/);
    expect(() => splitOperationKey('get /things')).toThrow(/bad operation key/);
  });

  it('collects array-item examples from oneOf variants and from the body examples', () => {
    const { examples, partial } = collectArrayItemExamples(tiny, 'GET /events', '200', 'events', (v) => isRecord(v) && 'type' in v);
    expect(examples.map((e) => e.value)).toEqual([
      { type: 'heartbeat', id: 0 },
      { type: 'typing', op: 'start', id: 0 },
      { type: 'reaction', op: 'add', id: 0 },
      { type: 'heartbeat', id: 7 },
    ]);
    expect(examples.map((e) => e.pointer)).toContain('#/components/schemas/TypingEvent/example');
    expect(examples.map((e) => e.pointer)).toContain(
      '#/paths/~1events/get/responses/200/content/application~1json/schema/allOf/1/example/events/0',
    );
    expect(partial.map((e) => e.value)).toEqual([{ not_an_event: true }]);
  });

  it('rejects dangling references loudly', () => {
    const broken = parseOpenApi(`
paths:
  /x:
    get:
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Missing"
`);
    expect(() => collectOperationExamples(broken, 'GET /x')).toThrow(/dangling \$ref/);
  });
});

describe('OpenAPI reference file', () => {
  it('is the real document: the walker finds examples for operations outside the table too', () => {
    const ops = findOperation(doc, 'GET /saved_snippets');
    expect(ops).toBeDefined();
    const statuses = collectOperationExamples(doc, 'POST /saved_snippets');
    const bodies = statuses.flatMap((s) => s.examples.map((e) => e.value));
    expect(bodies).toContainEqual({ result: 'success', msg: '', saved_snippet_id: 1 });
    expect(bodies).toContainEqual({ code: 'BAD_REQUEST', msg: 'Title cannot be empty.', result: 'error' });
  });
});
