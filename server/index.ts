/**
 * The reference server: the team-chat API spec (feature level 420) over SQLite, with live event
 * queues. `startServer` is the programmatic entry (tests, benchmarks, the app's sandbox);
 * `cli.ts` is `npm run server`.
 */
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from './clock.js';
import { isEmpty, openDb } from './db/open.js';
import { seedDemoContent } from './demo/content.js';
import { seedDemoPeople, seedRealm } from './demo/base.js';
import { seedLargeOrg } from './demo/large-org.js';
import { atomically } from './events/emit.js';
import { EventQueues } from './events/queues.js';
import { createHttpServer } from './http/server.js';
import { deliverDueScheduledMessages } from './model/scheduled-messages.js';
import { getUserByEmail } from './model/users.js';
import { buildRootRouter, buildRouter } from './routes/index.js';
import { DEFAULT_CONFIG, type ServerConfig, type ServerLog, type ServerState } from './state.js';

export interface StartOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the server is for this machine only unless told otherwise. */
  readonly host?: string;
  /** SQLite file; in memory when absent. */
  readonly dataPath?: string;
  /** Seed the demo realm (when the database is new). */
  readonly demo?: boolean;
  /** How many demo messages to generate beyond the hand-written ones. */
  readonly demoMessages?: number;
  /** Seed the large organisation instead (server/demo/large-org.ts; when the database is new). */
  readonly largeOrg?: { readonly scale?: number; readonly seed?: number };
  readonly clock?: Clock;
  readonly config?: Partial<Omit<ServerConfig, 'realmUrl'>>;
  readonly log?: ServerLog;
  /** Real-time period of the scheduled-message delivery check; 0 disables the timer. */
  readonly schedulerIntervalMs?: number;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT` (the API is under `/api/v1`). */
  readonly url: string;
  readonly port: number;
  readonly state: ServerState;
  /** Deliver scheduled messages that are due now (by the server's clock); returns how many. */
  runScheduler(): number;
  /** The API key of a user, for tests and the sandbox. */
  apiKey(email: string): string;
  /** Answer open long-polls, stop listening, close the database. */
  close(): Promise<void>;
}

const quietLog: ServerLog = { info: () => undefined, error: (m, e) => console.error(`[server] ${m}`, e) };

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const clock = opts.clock ?? systemClock;
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...opts.config, realmUrl: '' };
  const db = openDb(opts.dataPath);
  const queues = new EventQueues(clock, config);
  const state: ServerState = { lifecycle: { closing: false }, db, clock, config, queues, log: opts.log ?? quietLog };

  const http = createHttpServer(state, buildRouter(), buildRootRouter());
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
    });
  } catch (e) {
    // A port in use must not leave the database open (a file database would stay locked).
    queues.close();
    db.close();
    throw e;
  }
  const port = (http.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  config.realmUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  if (isEmpty(db)) {
    atomically(state, () => {
      seedRealm(state);
      if (opts.largeOrg) seedLargeOrg(state, opts.largeOrg);
      else if (opts.demo) {
        seedDemoPeople(state);
        seedDemoContent(state, { extraMessages: opts.demoMessages ?? 0 });
      }
    });
  }

  queues.startGc();
  const runScheduler = () => deliverDueScheduledMessages(state);
  const interval = opts.schedulerIntervalMs ?? 5_000;
  const timer = interval > 0 ? setInterval(runScheduler, interval) : undefined;
  timer?.unref();

  let closed = false;
  return {
    url: config.realmUrl,
    port,
    state,
    runScheduler,
    apiKey(email) {
      const u = getUserByEmail(state, email);
      if (!u) throw new Error(`no user ${email}`);
      return u.api_key;
    },
    async close() {
      if (closed) return;
      closed = true;
      state.lifecycle.closing = true;
      if (timer) clearInterval(timer);
      queues.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeIdleConnections();
        setTimeout(() => http.closeAllConnections(), 200).unref();
      });
      db.close();
    },
  };
}
