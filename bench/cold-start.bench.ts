/**
 * Cold start of the app on a `messages`-message account (target, issue #23: within 2x of the
 * baseline), and the database size per 100,000 messages (reported; no target).
 *
 * The account: a real first sync (register, snapshot, recent history) against the reference
 * server's demo realm, then `messages` generated messages over its channels stored through
 * `upsertMessages`, as history fetched over time would be; the server is then shut, so the start
 * is offline (its port refuses), as on a train.
 *
 * Cold start: a new process (bench/cold-start-child.ts, bundled with esbuild as the app bundles
 * its main process) from spawn to the first narrow answered by the engine service: service
 * created, the account restored (database opened, migrations checked, session started), the
 * accounts and channels the sidebar asks for, then a 50-message channel page through
 * `openNarrow`. Engine side: no Electron and no painting (measured elsewhere, by the renderer's
 * own tests); the OS file cache is warm after the first run. Baseline in the same run, in turns:
 * a process that opens the database with better-sqlite3 and runs the bare SQL of the same page.
 *
 * Size: the database file after a checkpoint, against the same messages as `GET /messages`
 * JSON (what the network carried).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { ApiConnection, silentLogger, type Message } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { upsertMessages } from '../sync/db/queries/messages.js';
import { setAccount } from '../sync/db/queries/state.js';
import { ChangeCollector } from '../sync/db/changes.js';
import { registerAndSync } from '../sync/engine/initial-sync.js';
import { accountFileName } from '../sync/engine/session.js';
import { AccountsList } from '../sync/service/accounts-file.js';
import { accountIdFor } from '../sync/service/engine-service.js';
import { startServer } from '../server/index.js';
import { externalDependencies } from '../scripts/main-bundle.js';
import { check, checkValue, printChecks, statsOf } from './lib.js';

const SUITE = 'cold-start';
const EMAIL = 'hamlet@example.com';
const WORDS = 'the quick brown fox jumps over a lazy dog while ghosts walk the castle at night under a pale moon and sing'.split(' ');

/** A cached account built by `buildAccount` (also used by the renderer suite). */
export interface Account {
  readonly dataDir: string;
  readonly file: string;
  readonly id: string;
  readonly channelId: number;
  readonly apiBytes: number;
  readonly count: number;
}

/**
 * A `messages`-message cached account under `dir/accounts` (the engine service's data directory:
 * its database and the accounts file naming it active); the API key is the caller's to provide.
 * The realm's server is shut before this returns: the account is offline.
 */
export async function buildAccount(dir: string, messages: number): Promise<Account> {
  const server = await startServer({ demo: true, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const realmUrl = server.url;
  const dataDir = join(dir, 'accounts');
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, accountFileName(realmUrl, EMAIL));
  const db = openLocalDb(file);
  const conn = new ApiConnection({ realmUrl, email: EMAIL, apiKey: server.apiKey(EMAIL), logger: silentLogger });
  let apiBytes = 0;
  let channelId = 0;
  try {
    setAccount(db, { realm_url: realmUrl, email: EMAIL });
    await registerAndSync({ conn, db, now: Date.now }, 'initial');
    const self = db.prepare('SELECT user_id FROM account').pluck().get() as number;
    const channels = db.prepare('SELECT s.channel_id AS id, c.name AS name FROM subscriptions s JOIN channels c ON c.id = s.channel_id ORDER BY s.channel_id').all() as Array<{ id: number; name: string }>;
    const users = db.prepare('SELECT id, email, full_name FROM users ORDER BY id').all() as Array<{ id: number; email: string; full_name: string }>;
    if (channels.length === 0 || users.length < 2) throw new Error('the first sync stored no channels or users');
    channelId = channels[0]!.id;
    // History fetched over time: ids above the server's, 1,000 per batch as the backfill stores them.
    const first = 10_000_000;
    for (let start = 0; start < messages; start += 1000) {
      const batch: Message[] = [];
      for (let i = start; i < Math.min(messages, start + 1000); i++) {
        const id = first + i;
        const sender = users[i % users.length]!;
        const words = Array.from({ length: 10 + (id % 40) }, (_, k) => WORDS[(id * 7 + k * 13) % WORDS.length]).join(' ');
        const content = `<p>${words}${id % 6 === 0 ? ` <a href="https://example.com/${id}">see</a>` : ''}</p>`;
        const flags = [...(id % 10 < 7 ? ['read'] : []), ...(id % 20 === 0 ? ['starred'] : [])];
        const base = {
          id, content, content_type: 'text/html' as const, timestamp: 1_700_000_000 + i * 30, client: 'bench', avatar_url: null, sender_id: sender.id,
          sender_email: sender.email, sender_full_name: sender.full_name, sender_realm_str: 'zulip', is_me_message: false, flags, reactions: [], submessages: [],
          topic_links: [], recipient_id: 1,
        };
        const m: Message =
          i % 12 === 0
            ? { ...base, type: 'private', subject: '', display_recipient: [self, sender.id].map((u) => ({ id: u, email: `u${u}@example.com`, full_name: `User ${u}`, is_mirror_dummy: false })) }
            : { ...base, type: 'stream', stream_id: channels[i % channels.length]!.id, subject: `topic ${(i >> 3) % 40}`, display_recipient: channels[i % channels.length]!.name };
        apiBytes += Buffer.byteLength(JSON.stringify(m));
        batch.push(m);
      }
      upsertMessages(db, batch, new ChangeCollector(), { personal: true });
    }
    db.pragma('optimize');
  } finally {
    await conn.close();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // Offline from here: the realm's port refuses connections.
    await server.close();
  }
  const id = accountIdFor(realmUrl, EMAIL);
  const list = new AccountsList(dataDir);
  list.upsert({ id, realm_url: realmUrl, email: EMAIL, kind: 'server' });
  list.setActive(id);
  const check = openLocalDb(file);
  const count = Number(check.prepare('SELECT count(*) FROM messages').pluck().get());
  check.pragma('wal_checkpoint(TRUNCATE)');
  check.close();
  return { dataDir, file, id, channelId, apiBytes, count };
}

/** The baseline process: better-sqlite3 opens the file and runs the bare SQL of the same page. */
const BARE_CHILD = `import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
const at = { loaded: performance.now() };
const [file, channelId] = process.argv.slice(2);
const db = new Database(file);
const rows = db.prepare('SELECT id, flags, json FROM messages WHERE channel_id = ? ORDER BY id DESC LIMIT 51').all(Number(channelId));
at.answered = performance.now();
if (rows.length !== 51) throw new Error('bare page: ' + rows.length + ' rows');
db.close();
process.stdout.write(JSON.stringify(at) + '\\n');
`;

/** One process from spawn to exit: wall time, and the milestones it printed (ms since its own start). */
function runChild(script: string, args: readonly string[]): Promise<{ wallMs: number; at: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let answeredAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (answeredAt === 0 && out.includes('\n')) answeredAt = performance.now();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0 || answeredAt === 0) return reject(new Error(`cold-start child exited ${code}: ${err.slice(0, 500)}`));
      resolve({ wallMs: answeredAt - t0, at: JSON.parse(out.trim()) as Record<string, number> });
    });
  });
}

export async function benchColdStart(opts: { messages: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cold-start-bench-'));
  try {
    const account = await buildAccount(dir, opts.messages);
    const size = statSync(account.file).size;
    // The child, bundled as the app bundles its main process (zod inlined, the other dependencies
    // left in node_modules, resolved from the cache directory beside them; not out/, which the
    // installers package).
    const outDir = join(import.meta.dirname, '..', 'node_modules', '.cache', 'bench');
    const script = join(outDir, 'cold-start-child.mjs');
    const bareScript = join(outDir, 'cold-start-bare.mjs');
    await build({ entryPoints: [join(import.meta.dirname, 'cold-start-child.ts')], outfile: script, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: externalDependencies(), logLevel: 'error' });
    writeFileSync(bareScript, BARE_CHILD);
    const engineArgs = [account.dataDir, account.id, String(account.channelId)];
    const bareArgs = [account.file, String(account.channelId)];
    const engine: Array<{ wallMs: number; at: Record<string, number> }> = [];
    const bare: Array<{ wallMs: number; at: Record<string, number> }> = [];
    const rounds = 6;
    for (let r = 0; r < rounds + 1; r++) {
      const b = await runChild(bareScript, bareArgs);
      const e = await runChild(script, engineArgs);
      // The first round warms the OS file cache and is not counted.
      if (r > 0) {
        bare.push(b);
        engine.push(e);
      }
    }
    const median = (xs: number[]) => statsOf('', xs).medianMs.toFixed(0);
    const perHundredK = (size * 100_000) / account.count;
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    printChecks(
      `Cold start and database size (${account.count.toLocaleString('en')} messages)`,
      [
        check(
          SUITE,
          statsOf('cold start: process start -> first 50-message page answered by the engine service', engine.map((x) => x.wallMs)),
          statsOf('new process: better-sqlite3 opens the file, bare SQL of the same page', bare.map((x) => x.wallMs)),
          { max: 2 },
        ),
        checkValue(SUITE, 'database file per 100,000 messages', { n: perHundredK, text: mb(perHundredK) }, { name: 'the same messages as GET /messages JSON', n: (account.apiBytes * 100_000) / account.count, text: mb((account.apiBytes * 100_000) / account.count) }, 'report'),
      ],
      [
        `engine process, median ms since its start: modules loaded ${median(engine.map((x) => x.at['loaded']!))}, account restored ${median(engine.map((x) => x.at['restored']!))}, accounts ${median(engine.map((x) => x.at['accounts']!))}, channels ${median(engine.map((x) => x.at['channels']!))}, first page answered ${median(engine.map((x) => x.at['answered']!))} (bare process: ${median(bare.map((x) => x.at['answered']!))}); the table's figures are from spawn, as the parent saw them`,
        `database ${mb(size)} for ${account.count.toLocaleString('en')} messages (messages + search index + the first sync's state), checkpointed; ${rounds} starts each, in turns, after one warm-up start`,
        'engine side: no Electron window and no painting; the renderer asks for the accounts, the channels and the page, as here',
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(import.meta.dirname, '..', 'node_modules', '.cache', 'bench'), { recursive: true, force: true });
  }
}
