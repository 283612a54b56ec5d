/**
 * Local narrows (sync/engine/narrow) on a store of `messages` generated messages, each against
 * baselines measured in the same run, in turns:
 *  - a 50-message page (anchor newest) of a topic, a channel, a DM conversation and `is:starred`
 *    through `readNarrowPage` (compile, SQL, completeness ranges, message objects), against the
 *    bare SQL reading the same 51 rows (target, issue #23: at most 2x: the engine's work over the
 *    SQL, the narrow's compile, the channels' names, the outbox marker, four range probes and the
 *    message objects, at most the SQL's own), and against the same kind of page
 *    from the reference server over loopback HTTP on a demo realm of the same size (target: local
 *    at least 10x faster);
 *  - a `search` narrow page (a common word; two words as prefixes), against the FTS5 query alone
 *    with the same MATCH expression (target: at most 3x, and p95 under 15 ms).
 */
import type { Message } from '../sync/api/index.js';
import { ApiConnection, getMessages, type NarrowTerm } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { flagsToBits, HAS_ROW } from '../sync/db/flags.js';
import { messageRow } from '../sync/db/queries/message-columns.js';
import { writeMessageRow } from '../sync/db/queries/messages.js';
import { readNarrowPage } from '../sync/engine/narrow/reader.js';
import { startServer } from '../server/index.js';
import { ftsQuery } from '../common/search.js';
import { check, interleave, printChecks, type Check } from './lib.js';

const SUITE = 'engine-narrow';

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
      writeMessageRow(db, messageRow(m, flagsToBits(m.flags) | HAS_ROW), m.content, true);
    }
  })();
  db.pragma('optimize');

  const page = (narrow: NarrowTerm[]) => () => {
    const p = readNarrowPage(db, narrow, { anchor: 'newest', before: 50, after: 0 }, SELF);
    if (p.messages.length !== 50) throw new Error(`short local page for ${JSON.stringify(narrow)}`);
  };
  const bare = (sql: string, ...params: unknown[]) => {
    const stmt = db.prepare(sql);
    return () => {
      if (stmt.all(...params).length !== 51) throw new Error(`short bare page: ${sql}`);
    };
  };
  const COLS = 'SELECT id, flags, json FROM messages';
  const local: Array<{ name: string; narrow: NarrowTerm[]; bare: () => void; remote: (server: { channel: string; topic: string }) => NarrowTerm[] }> = [
    {
      name: 'topic',
      narrow: [{ operator: 'channel', operand: 'channel 3' }, { operator: 'topic', operand: 'topic 7' }],
      bare: bare(`${COLS} WHERE channel_id = ? AND topic = ? COLLATE NOCASE ORDER BY id DESC LIMIT 51`, 3, 'topic 7'),
      remote: (b) => [{ operator: 'channel', operand: b.channel }, { operator: 'topic', operand: b.topic }],
    },
    {
      name: 'channel',
      narrow: [{ operator: 'channel', operand: 3 }],
      bare: bare(`${COLS} WHERE channel_id = ? ORDER BY id DESC LIMIT 51`, 3),
      remote: (b) => [{ operator: 'channel', operand: b.channel }],
    },
    {
      name: 'DM',
      narrow: [{ operator: 'dm', operand: [11] }],
      bare: bare(`${COLS} WHERE dm_key = ? ORDER BY id DESC LIMIT 51`, '10,11'),
      remote: () => [{ operator: 'dm', operand: 'othello@example.com' }],
    },
    {
      name: 'is:starred',
      narrow: [{ operator: 'is', operand: 'starred' }],
      bare: bare(`${COLS} WHERE (flags & 2) != 0 ORDER BY id DESC LIMIT 51`),
      remote: () => [{ operator: 'is', operand: 'starred' }],
    },
  ];
  const searches: Array<{ name: string; text: string }> = [
    { name: 'search "castle" (common word)', text: 'castle' },
    { name: 'search "pale moo" (two words, prefixes)', text: 'pale moo' },
  ];
  const checks: Check[] = [];

  // The same pages from the reference server over loopback, on a demo realm of the same size.
  const server = await startServer({ demo: true, demoMessages: opts.messages, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const email = 'hamlet@example.com';
  const conn = new ApiConnection({ realmUrl: server.url, email, apiKey: server.apiKey(email), logger: { warn: () => undefined } });
  try {
    const busiest = server.state.db
      .prepare(`SELECT c.name AS channel, m.topic AS topic FROM messages m JOIN channels c ON c.id = m.channel_id
                WHERE c.invite_only = 0 GROUP BY m.channel_id, m.topic ORDER BY COUNT(*) DESC LIMIT 1`)
      .get() as { channel: string; topic: string };
    for (const l of local) {
      const narrow = l.remote(busiest);
      const [b, ours, remote] = await interleave(
        [
          { name: `bare SQL, same 51 rows`, fn: l.bare },
          { name: `local page of 50, ${l.name}`, fn: page(l.narrow) },
          {
            name: `server page of 50, ${l.name} (loopback HTTP)`,
            fn: async () => {
              const r = await getMessages(conn, { narrow, anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: true, client_gravatar: false });
              if (r.messages.length === 0) throw new Error(`empty server page for ${l.name}`);
            },
          },
        ],
        { runs: 120, warmup: 10 },
      );
      checks.push(check(SUITE, ours!, b!, { max: 2 }, { baselineName: `bare SQL, same 51 rows` }));
      checks.push(check(SUITE, ours!, remote!, { min: 10 }, { baselineName: `server page of 50 (loopback HTTP)` }));
    }
  } finally {
    await conn.close();
    await server.close();
  }
  for (const q of searches) {
    const match = ftsQuery(q.text);
    if (match === null) throw new Error(`no search words in ${q.text}`);
    const fts = db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 51');
    const [alone, ours] = await interleave(
      [
        {
          name: 'FTS5 query alone, same MATCH, 51 ids',
          fn: () => {
            if (fts.all(match).length !== 51) throw new Error(`short FTS page for ${q.text}`);
          },
        },
        { name: `local page of 50, ${q.name}`, fn: page([{ operator: 'search', operand: q.text }]) },
      ],
      { runs: 60, warmup: 5 },
    );
    checks.push(check(SUITE, ours!, alone!, { max: 3 }));
    checks.push(check(SUITE, ours!, alone!, { p95Max: 15 }));
  }
  db.close();
  printChecks(`Local narrows: 50-message pages on ${opts.messages.toLocaleString('en')} cached messages`, checks, [
    'local: readNarrowPage, anchor newest, 50 before (compile, SQL, completeness ranges, message objects); 6 channels x 40 topics, 8% DMs, 5% starred',
    'server: GET /messages with the same kind of narrow on the demo realm with as many messages, its busiest topic',
  ]);
}
