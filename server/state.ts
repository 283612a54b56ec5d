/** Everything a handler needs: the database, the clock, the configuration and the event queues. */
import type { Clock } from './clock.js';
import type { Db } from './db/open.js';
import type { EventQueues } from './events/queues.js';

/** How the simulated push relay answers E2EE test notifications. */
export type PushRelayMode = 'ok' | 'admin_action_required' | 'connect_failure' | 'server_error';

export interface ServerConfig {
  readonly realmName: string;
  /** Filled in once the server listens: `http://127.0.0.1:PORT`. */
  realmUrl: string;
  readonly zulipVersion: string;
  readonly featureLevel: number;
  /** Long-poll period announced at register and used by GET /events (seconds). */
  readonly longPollSeconds: number;
  /** How long an idle queue (no poll connected) survives (seconds). */
  readonly idleQueueTimeoutSeconds: number;
  readonly rateLimit: RateLimitConfig | false;
  readonly inviteDailyLimit: number;
  /** Maximum number of non-deactivated human users (license seats); Infinity for none. */
  readonly licenseLimit: number;
  /** Time budget of one delete_topic request before it answers `complete: false`. */
  readonly deleteTopicBudgetMs: number;
  readonly deleteTopicBatchSize: number;
  pushRelay: PushRelayMode;
  readonly maxFileUploadMib: number;
  /** Total body of an authenticated urlencoded request (multipart: the upload size plus slack). */
  readonly formBodyLimitBytes: number;
  /** Total body of a request to an unauthenticated route (fetch_api_key), any content type. */
  readonly publicBodyLimitBytes: number;
  /** Deadline of the server's own requests to other sites (the image proxy, link previews). */
  readonly outboundTimeoutMs: number;
}

export interface RateLimitConfig {
  /** Requests per window for an authenticated user (Zulip: 200 per 60 s). */
  readonly requests: number;
  readonly windowSeconds: number;
  /** Authentication attempts (fetch_api_key) per window, per client address. */
  readonly authRequests: number;
  readonly authWindowSeconds: number;
}

export interface ServerLog {
  info(msg: string): void;
  error(msg: string, err?: unknown): void;
}

export interface ServerState {
  /** Set when shutdown begins: requests still arriving on kept-alive sockets are refused. */
  readonly lifecycle: { closing: boolean };
  readonly db: Db;
  readonly clock: Clock;
  readonly config: ServerConfig;
  readonly queues: EventQueues;
  readonly log: ServerLog;
}

export const DEFAULT_CONFIG: Omit<ServerConfig, 'realmUrl'> = {
  realmName: 'Sandbox',
  zulipVersion: '11.0-reference',
  featureLevel: 420,
  longPollSeconds: 90,
  idleQueueTimeoutSeconds: 600,
  rateLimit: { requests: 200, windowSeconds: 60, authRequests: 20, authWindowSeconds: 60 },
  inviteDailyLimit: 100,
  licenseLimit: Number.POSITIVE_INFINITY,
  deleteTopicBudgetMs: 1000,
  deleteTopicBatchSize: 100,
  pushRelay: 'ok',
  maxFileUploadMib: 25,
  formBodyLimitBytes: 5 * 1024 * 1024,
  publicBodyLimitBytes: 64 * 1024,
  outboundTimeoutMs: 10_000,
};
