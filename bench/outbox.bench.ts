/**
 * The outbox (issue: offline writes):
 *  - enqueue of 10,000 mutations into a database FILE (WAL), one transaction per mutation as the
 *    engine does it (one per user action), through `OutboxStore.enqueue`; baseline: raw
 *    better-sqlite3 inserts of the same rows, one transaction each, in the same run. Target 30,000/s;
 *  - drain throughput: 500 independent `user_topic_set` rows drained by the pusher (keep-alive,
 *    concurrency 4) against the reference server on loopback; baselines: the same 500 requests one
 *    after another with a fresh connection each (no keep-alive, no concurrency), and one after
 *    another over one keep-alive connection;
 *  - network regained -> first request: rows in `retry_wait` after the proxy went offline, then
 *    `retryNow()`; time until the proxy sees the first request. Target under 100 ms.
 */
import { ALL_KINDS } from '../sync/outbox/registry.js';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiConnection, getSubscriptions, silentLogger, updateUserTopic } from '../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../sync/db/open.js';
import { silentEngineLogger, systemClock } from '../sync/engine/seams.js';
import { KindRegistry, type RuntimeKind } from '../sync/outbox/kinds.js';
import { contentEditBaseOf } from '../sync/outbox/mutations/message-content-edit.js';
import { OutboxPusher } from '../sync/outbox/pusher.js';
import { OutboxStore } from '../sync/outbox/store.js';
import { startServer } from '../server/index.js';
import { FaultProxy } from '../test/support/fault-proxy.js';
import { printTable, type Stats } from './lib.js';
import { benchOutboxHeads } from './outbox-heads.bench.js';

const kinds = new KindRegistry(ALL_KINDS);
const kind = (name: string): RuntimeKind => {
  const k = kinds.get(name, 1);
  if (!k) throw new Error(`no kind ${name}`);
  return k;
};

/** Stats from measured durations (each run has its own untimed set-up, so `measure` does not fit). */
function statsOf(name: string, times: number[], itemsPerRun: number): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  return { name, runs: sorted.length, medianMs: q(0.5), p95Ms: q(0.95), minMs: sorted[0]!, itemsPerRun };
}

type Setup = () => Promise<() => Promise<void> | void>;

/**
 * Durations of each variant, run in turns (a, b, c, a, b, c, ...) so that load from elsewhere on
 * the machine falls on every variant alike and the ratios stay meaningful.
 */
async function interleaved(rounds: number, setups: readonly Setup[], warmup = 1): Promise<number[][]> {
  const times = setups.map((): number[] => []);
  for (let r = 0; r < warmup + rounds; r++) {
    for (const [i, setup] of setups.entries()) {
      const fn = await setup();
      const t0 = performance.now();
      await fn();
      // Warm-up rounds (JIT, connection pools, SQLite page cache) are not counted.
      if (r >= warmup) times[i]!.push(performance.now() - t0);
    }
  }
  return times;
}

/** A realistic mix over many entities: content edits, topic policies, snippet and view edits (some coalesce). */
function mutation(i: number): { kind: RuntimeKind; args: unknown; base: unknown } {
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3:
      return { kind: kind('message_content_edit'), args: { message_id: 1 + (i % 5003), content: `edit ${i} of the message` }, base: contentEditBaseOf(`text before edit ${i}`) };
    case 4:
    case 5:
    case 6:
      return { kind: kind('user_topic_set'), args: { stream_id: 1 + (i % 7), topic: `topic ${i % 2001}`, visibility_policy: i % 4 }, base: null };
    case 7:
    case 8:
      return { kind: kind('saved_snippet_edit'), args: { saved_snippet_id: 1 + (i % 499), content: `snippet body ${i}` }, base: null };
    default:
      return { kind: kind('navigation_view_edit'), args: { fragment: `narrow/channel/${i % 97}-x`, is_pinned: i % 2 === 0 }, base: null };
  }
}

async function benchEnqueue(dir: string): Promise<void> {
  const N = 10_000;
  const items = Array.from({ length: N }, (_, i) => mutation(i));
  let n = 0;
  const freshDb = (sync: 'NORMAL' | 'FULL'): LocalDb => {
    const db = openLocalDb(join(dir, `enqueue-${n++}.db`));
    db.pragma(`synchronous = ${sync}`);
    return db;
  };
  const open: LocalDb[] = [];
  const raw: Setup = async () => {
    const db = freshDb('NORMAL');
    open.push(db);
    const insert = db.prepare(`INSERT INTO outbox (kind, kind_version, entity_key, args, base, state, created_at, updated_at, history) VALUES (?, 1, ?, ?, ?, 'queued', ?, ?, ?)`);
    // Everything the store derives (key, JSON) is precomputed: the floor is SQLite's own cost.
    const rows = items.map((m) => [m.kind.kind, m.kind.entityKey(m.args), JSON.stringify(m.args), JSON.stringify(m.base), JSON.stringify([{ at: 0, event: 'enqueue', to: 'queued' }])] as const);
    const one = db.transaction((r: (typeof rows)[number], now: number) => insert.run(r[0], r[1], r[2], r[3], now, now, r[4]));
    return () => {
      for (const r of rows) one(r, Date.now());
    };
  };
  const viaStore = (sync: 'NORMAL' | 'FULL', count: number) => async () => {
    const db = freshDb(sync);
    open.push(db);
    const store = new OutboxStore(db, kinds, systemClock);
    // The engine's shape: the user action's transaction around the enqueue (and its local effect).
    const action = db.transaction((m: (typeof items)[number]) => store.enqueue(m.kind, m.args, m.base));
    return () => {
      for (let i = 0; i < count; i++) action(items[i]!);
    };
  };
  const [rawTimes, ours] = await interleaved(7, [raw, viaStore('NORMAL', N)]);
  const [full] = await interleaved(3, [viaStore('FULL', 1_000)]);
  for (const db of open) db.close();
  const rows = [
    statsOf('raw better-sqlite3 insert, 1 tx each (WAL, synchronous=NORMAL)', rawTimes!, N),
    statsOf('OutboxStore.enqueue, 1 tx each (WAL, synchronous=NORMAL)', ours!, N),
    statsOf('OutboxStore.enqueue, 1,000, 1 tx each (WAL, synchronous=FULL)', full!, 1_000),
  ];
  const rate = (10_000 * 1000) / rows[1]!.medianMs;
  printTable('Outbox: enqueue 10,000 mutations into a database file', rows, rows[0]!.name, [
    `enqueue rate ${Math.round(rate).toLocaleString('en')}/s (target 30,000/s): ${rate >= 30_000 ? 'met' : 'NOT met'}`,
    'mix: 40% content edits over 5,003 messages, 30% topic policies over 2,001 topics, 20% snippet edits over 499, 10% view edits over 97 (repeats coalesce)',
    'synchronous=NORMAL (the app default) survives a process crash; FULL also survives power loss (an fsync per commit)',
  ]);
}

/** The reference server in its own process, as in real use (in-process it would share our one thread). */
async function spawnServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', '--port', '0', '--demo', '--no-rate-limit'], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return {
    url,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function apiKeyOf(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) });
  const json: unknown = await res.json();
  const key = typeof json === 'object' && json !== null ? Reflect.get(json, 'api_key') : undefined;
  if (typeof key !== 'string') throw new Error(`fetch_api_key: ${JSON.stringify(json)}`);
  return key;
}

/** One POST /user_topics over a fresh TCP connection (agent: false sends `Connection: close`). */
function postFresh(url: URL, auth: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/v1/user_topics',
        agent: false,
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A TCP relay adding `oneWayMs` each way (and a round trip before a new connection's first byte,
 * as a TCP handshake costs): loopback with a real network's latency. Equal delays keep the
 * chunks of a connection in order (Node fires timers of equal expiry in insertion order).
 */
async function latencyRelay(target: URL, oneWayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const handshakeDone = Date.now() + 2 * oneWayMs;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    // Everything from one side, closing included, travels with the same delay, so in order.
    const toUpstream = (fn: () => void) => setTimeout(fn, oneWayMs + Math.max(0, handshakeDone - Date.now()));
    const toClient = (fn: () => void) => setTimeout(fn, oneWayMs);
    client.on('data', (chunk) => toUpstream(() => upstream.write(chunk)));
    upstream.on('data', (chunk) => toClient(() => client.write(chunk)));
    client.on('end', () => toUpstream(() => upstream.end()));
    upstream.on('end', () => toClient(() => client.end()));
    client.on('close', () => toUpstream(() => upstream.destroy()));
    upstream.on('close', () => toClient(() => client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface DrainTarget {
  readonly label: string;
  readonly url: string;
  readonly n: number;
  readonly rounds: number;
  readonly warmup: number;
}

async function benchDrain(dir: string): Promise<void> {
  const server = await spawnServer();
  const email = 'iago@example.com';
  const apiKey = await apiKeyOf(server.url, email);
  const auth = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  const relay = await latencyRelay(new URL(server.url), 5);
  let round = 0;
  const drainOne = async (t: DrainTarget) => {
    const conn = new ApiConnection({ realmUrl: t.url, email, apiKey, logger: silentLogger });
    try {
      const verona = (await getSubscriptions(conn)).subscriptions.find((s) => s.name === 'Verona');
      if (!verona) throw new Error('iago is not subscribed to Verona');
      // Each run sets a different policy on the topics, so every request changes something.
      const argsOf = (r: number) => Array.from({ length: t.n }, (_, i) => ({ stream_id: verona.stream_id, topic: `bench topic ${i}`, visibility_policy: (1 + (r % 3)) as 1 | 2 | 3 }));
      const target = new URL(t.url);
      const fresh: Setup = async () => {
        const list = argsOf(round++);
        return async () => {
          for (const a of list) await postFresh(target, auth, new URLSearchParams({ stream_id: String(a.stream_id), topic: a.topic, visibility_policy: String(a.visibility_policy) }).toString());
        };
      };
      const serial: Setup = async () => {
        const list = argsOf(round++);
        return async () => {
          for (const a of list) await updateUserTopic(conn, a);
        };
      };
      const cpu: number[] = [];
      const pushed: Setup = async () => {
        const db = openLocalDb(join(dir, `drain-${round}.db`));
        const store = new OutboxStore(db, kinds, systemClock);
        for (const a of argsOf(round++)) store.enqueue(kind('user_topic_set'), a, null);
        const pusher = new OutboxPusher({ store, conn, seams: { logger: silentEngineLogger }, concurrency: 4 });
        return async () => {
          const c0 = process.cpuUsage();
          pusher.start();
          await pusher.idle();
          await pusher.stop();
          const c = process.cpuUsage(c0);
          cpu.push((c.user + c.system) / t.n);
          const left = Number(db.prepare("SELECT COUNT(*) FROM outbox WHERE state != 'done'").pluck().get());
          db.close();
          if (left !== 0) throw new Error(`${left} rows not done`);
        };
      };
      const [freshTimes, serialTimes, pushedTimes] = await interleaved(t.rounds, [fresh, serial, pushed], t.warmup);
      const rows = [
        statsOf('one by one, fresh connection each (no keep-alive)', freshTimes!, t.n),
        statsOf('one by one, keep-alive (ApiConnection)', serialTimes!, t.n),
        statsOf('pusher: keep-alive, concurrency 4, state recorded per row', pushedTimes!, t.n),
      ];
      printTable(`Outbox: drain ${t.n} user_topic_set rows, ${t.label}`, rows, rows[0]!.name, [
        `pusher drains ${(rows[0]!.medianMs / rows[2]!.medianMs).toFixed(2)}x as fast as one by one without keep-alive (${(rows[1]!.medianMs / rows[2]!.medianMs).toFixed(2)}x one by one with keep-alive)`,
        `pusher client CPU per row (median): ${Math.round(statsOf('', cpu.slice(t.warmup), 1).medianMs)} µs (SQLite state before and after each request, scheduling, HTTP, parsing)`,
      ]);
    } finally {
      await conn.close();
    }
  };
  try {
    // Three warm-up rounds: the server process's JIT needs a few thousand requests to settle.
    await drainOne({ label: 'reference server in its own process on loopback (rate limits off)', url: server.url, n: 500, rounds: 7, warmup: 3 });
    console.log('  on loopback the single-threaded server is the bound: concurrency overlaps only our CPU with its CPU');
    await drainOne({ label: 'through a relay adding 5 ms each way (10 ms round trips)', url: relay.url, n: 100, rounds: 3, warmup: 1 });
  } finally {
    await relay.close();
    await server.close();
  }
}

async function benchRegained(dir: string): Promise<void> {
  const server = await startServer({ demo: true, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const proxy = await FaultProxy.start(server.url);
  const email = 'iago@example.com';
  const conn = new ApiConnection({ realmUrl: proxy.url, email, apiKey: server.apiKey(email), logger: silentLogger });
  const db = openLocalDb(join(dir, 'regained.db'));
  const store = new OutboxStore(db, kinds, systemClock);
  const pusher = new OutboxPusher({ store, conn, seams: { logger: silentEngineLogger }, concurrency: 4 });
  let seenAt = 0;
  // A rule that never matches: it only notes when the proxy receives a request.
  proxy.rule(() => {
    if (seenAt === 0) seenAt = performance.now();
    return false;
  }, { kind: 'reset' });
  const streamId = Number(server.state.db.prepare("SELECT id FROM channels WHERE name = 'Verona'").pluck().get());
  const waitFor = async (pred: () => boolean) => {
    while (!pred()) await new Promise((r) => setTimeout(r, 1));
  };
  const times: number[] = [];
  const waited: number[] = [];
  try {
    pusher.start();
    for (let i = 0; i < 50; i++) {
      await proxy.pause();
      const { id } = store.enqueue(kind('user_topic_set'), { stream_id: streamId, topic: `regained ${i}`, visibility_policy: 1 + (i % 3) }, null);
      pusher.kick();
      // The attempt fails with the connection refused; the row waits out its backoff.
      await waitFor(() => store.get(id)?.state === 'retry_wait');
      waited.push((store.get(id)?.nextAttemptAt ?? 0) - Date.now());
      await proxy.resume();
      seenAt = 0;
      const t0 = performance.now();
      pusher.retryNow();
      await waitFor(() => seenAt !== 0);
      times.push(seenAt - t0);
      await pusher.idle();
      if (store.get(id)?.state !== 'done') throw new Error('row not done after the network came back');
    }
  } finally {
    await pusher.stop();
    db.close();
    await conn.close();
    await proxy.close();
    await server.close();
  }
  const row = statsOf('retryNow() -> first request at the proxy', times, 1);
  printTable('Outbox: network regained -> first request sent', [row], undefined, [
    `median ${row.medianMs.toFixed(2)} ms (target under 100 ms): ${row.medianMs < 100 ? 'met' : 'NOT met'}; the backoff it cut short had ${Math.round(statsOf('', waited, 1).medianMs)} ms left (median)`,
  ]);
}

export async function benchOutbox(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-bench-'));
  try {
    await benchEnqueue(dir);
    await benchDrain(dir);
    await benchRegained(dir);
    await benchOutboxHeads();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
