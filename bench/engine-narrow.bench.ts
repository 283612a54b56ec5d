/**
 * Local narrows (sync/engine/narrow) on a store of `messages` generated messages: a 50-message
 * page (anchor newest) of a topic, a channel, a DM conversation and `is:starred` (target p95 under
 * 2 ms), and a `search` narrow (target p95 under 15 ms). Baseline in the same run: the same kind
 * of 50-message page from the reference server over loopback HTTP, on a demo realm of the same
 * size (target: local at least 10x faster).
 */
import type { Message } from '../sync/api/index.js';
import { ApiConnection, getMessages, type NarrowTerm } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { flagsToBits, HAS_ROW } from '../sync/db/flags.js';
import { messageRow } from '../sync/db/queries/message-columns.js';
import { writeMessageRow } from '../sync/db/queries/messages.js';
import { readNarrowPage } from '../sync/engine/narrow/reader.js';
import { startServer } from '../server/index.js';
import { measure, printTable, type Stats } from './lib.js';

const SELF = 10;
const USERS = [10, 11, 12, 13, 14, 15, 16, 17];
const CHANNELS = [1, 2, 3, 4, 5, 6];
const WORDS = 'the quick brown fox jumps over a lazy dog while ghosts walk the castle at night under a pale moon and sing'.split(' ');

/** Deterministic, realistic rows: 6 channels x 40 topics, 8% DMs, 5% starred, 30% unread. */
function generated(id: number): Message {
  const words = Array.from({ length: 10 + (id % 40) }, (_, i) => WORDS[(id * 7 + i * 13) % WORDS.length]).join(' ');
  const content = `<p>${words}${id % 6 === 0 ? ` <a href="https://example.com/${id}">see</a>` : ''}</p>`;
  const flags = [...(id % 10 < 7 ? ['read'] : []), ...(id % 20 === 0 ? ['starred'] : [])];
  const sender = USERS[id % USERS.length]!;
  const base = {
    id, content, content_type: 'text/html' as const, timestamp: 1_700_000_000 + id * 30, client: 'bench', avatar_url: null,
    sender_id: sender, sender_email: `u${sender}@example.com`, sender_full_name: `User ${sender}`, sender_realm_str: 'zulip',
    is_me_message: false, flags, reactions: [], submessages: [], recipient_id: 1,
  };
  if (id % 12 === 0) {
    const other = USERS[1 + (id % 3)]!;
    return { ...base, type: 'private', subject: '', display_recipient: [SELF, other].map((u) => ({ id: u, email: `u${u}@example.com`, full_name: `User ${u}` })) };
  }
  const channel = CHANNELS[id % CHANNELS.length]!;
  return { ...base, type: 'stream', stream_id: channel, subject: `topic ${(id >> 3) % 40}`, display_recipient: `channel ${channel}` };
}

export async function benchEngineNarrow(opts: { messages: number }): Promise<void> {
  const db = openLocalDb(':memory:');
  for (const u of USERS) db.prepare('INSERT INTO users (id, email, full_name, json) VALUES (?, ?, ?, ?)').run(u, `u${u}@example.com`, `User ${u}`, '{}');
  for (const c of CHANNELS) db.prepare('INSERT INTO channels (id, name, json) VALUES (?, ?, ?)').run(c, `channel ${c}`, JSON.stringify({ invite_only: false }));
  db.transaction(() => {
    for (let id = 1; id <= opts.messages; id++) {
      const m = generated(id);
      // Received messages: the server holds a row for each, so they are in personal history.
      writeMessageRow(db, messageRow(m, flagsToBits(m.flags) | HAS_ROW), m.content);
    }
  })();
  db.pragma('optimize');

  const page = (narrow: NarrowTerm[]) => () => {
    const p = readNarrowPage(db, narrow, { anchor: 'newest', before: 50, after: 0 }, SELF);
    if (p.messages.length === 0) throw new Error(`empty local page for ${JSON.stringify(narrow)}`);
  };
  const rows: Stats[] = [];
  const local: Array<[string, NarrowTerm[]]> = [
    ['topic', [{ operator: 'channel', operand: 'channel 3' }, { operator: 'topic', operand: 'topic 7' }]],
    ['channel', [{ operator: 'channel', operand: 3 }]],
    ['DM', [{ operator: 'dm', operand: [11] }]],
    ['is:starred', [{ operator: 'is', operand: 'starred' }]],
  ];
  for (const [name, narrow] of local) rows.push(await measure(`local 50, ${name}`, page(narrow), { runs: 300, warmup: 20, itemsPerRun: 50 }));
  rows.push(await measure('local 50, search "castle" (common word)', page([{ operator: 'search', operand: 'castle' }]), { runs: 100, warmup: 10, itemsPerRun: 50 }));
  rows.push(await measure('local 50, search "pale moo" (two words, prefix)', page([{ operator: 'search', operand: 'pale moo' }]), { runs: 100, warmup: 10, itemsPerRun: 50 }));

  // The same pages from the reference server over loopback, on a demo realm of the same size.
  const server = await startServer({ demo: true, demoMessages: opts.messages, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const email = 'hamlet@example.com';
  const conn = new ApiConnection({ realmUrl: server.url, email, apiKey: server.apiKey(email), logger: { warn: () => undefined } });
  try {
    const sdb = server.state.db;
    const busiest = sdb
      .prepare(`SELECT c.name AS channel, m.topic AS topic FROM messages m JOIN channels c ON c.id = m.channel_id
                WHERE c.invite_only = 0 GROUP BY m.channel_id, m.topic ORDER BY COUNT(*) DESC LIMIT 1`)
      .get() as { channel: string; topic: string };
    const remote: Array<[string, NarrowTerm[]]> = [
      ['topic', [{ operator: 'channel', operand: busiest.channel }, { operator: 'topic', operand: busiest.topic }]],
      ['channel', [{ operator: 'channel', operand: busiest.channel }]],
      ['DM', [{ operator: 'dm', operand: 'othello@example.com' }]],
      ['is:starred', [{ operator: 'is', operand: 'starred' }]],
    ];
    for (const [name, narrow] of remote) {
      rows.push(
        await measure(`server 50, ${name} (loopback HTTP)`, async () => {
          const r = await getMessages(conn, { narrow, anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: true, client_gravatar: false });
          if (r.messages.length === 0) throw new Error(`empty server page for ${name}`);
        }, { runs: 60, warmup: 5, itemsPerRun: 50 }),
      );
    }
  } finally {
    await conn.close();
    await server.close();
    db.close();
  }
  const byName = new Map(rows.map((r) => [r.name, r]));
  const notes = local.map(([name]) => {
    const l = byName.get(`local 50, ${name}`)!;
    const s = byName.get(`server 50, ${name} (loopback HTTP)`)!;
    return `${name}: local p95 ${l.p95Ms.toFixed(3)} ms (target < 2), ${(s.medianMs / l.medianMs).toFixed(0)}x faster than the server (median; target >= 10x)`;
  });
  notes.push('search: target p95 < 15 ms');
  printTable(`Local narrows, 50-message pages on ${opts.messages.toLocaleString('en')} cached messages`, rows, 'local 50, topic', notes);
}
