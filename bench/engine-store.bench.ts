/**
 * The local store (sync/db/queries, sync/engine/handlers):
 *  - ingest of 1,000-message fetched batches through `upsertMessages`, against a raw
 *    better-sqlite3 loop inserting the very same rows (messages + search entries) in the same run,
 *    so the ratio is our overhead (column derivation, HTML text, change detection);
 *  - event apply rate on a store of `messages` messages: a realistic mix of new messages, flag
 *    changes and content edits, 100 events per transaction (as the poller delivers them).
 */
import type { Message, ZulipEvent } from '../sync/api/index.js';
import { parseEvent } from '../sync/api/index.js';
import { openLocalDb } from '../sync/db/open.js';
import { htmlToText, messageRow } from '../sync/db/queries/message-columns.js';
import { upsertMessages } from '../sync/db/queries/messages.js';
import { ChangeCollector } from '../sync/engine/changes.js';
import { applyEvents } from '../sync/engine/handlers/index.js';
import { channelMessage, dmMessage } from '../test/sync/db/queries-fixtures.js';
import { measure, printTable } from './lib.js';

const BATCH = 1000;
const TOPICS = ['lunch', 'castle', 'plans', 'release', 'music', 'ghosts', 'Verona', 'travel'];
const WORDS = 'the quick brown fox jumps over a lazy dog while ghosts walk the castle at night'.split(' ');

/** A deterministic, realistic message: varied topics, some DMs, links, mentions, reactions. */
function exampleMessage(id: number): Message {
  const words = Array.from({ length: 12 + (id % 30) }, (_, i) => WORDS[(id * 7 + i * 3) % WORDS.length]).join(' ');
  const link = id % 5 === 0 ? ` <a href="https://example.com/${id}">link</a>` : '';
  const content = `<p>${words}${link}</p>`;
  const flags = id % 3 === 0 ? [] : ['read'];
  if (id % 11 === 0) {
    return dmMessage(id, [10, 11 + (id % 4)], { content, flags, sender_id: 11 + (id % 4) });
  }
  return channelMessage(id, {
    stream_id: 1 + (id % 6),
    subject: TOPICS[id % TOPICS.length],
    content,
    flags,
    reactions: id % 7 === 0 ? [{ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: 12 }] : [],
  });
}

const batchOf = (first: number) => Array.from({ length: BATCH }, (_, i) => exampleMessage(first + i));

async function benchIngest(): Promise<void> {
  const ours = openLocalDb(':memory:');
  const raw = openLocalDb(':memory:');
  const insert = raw.prepare(`INSERT INTO messages
    (id, type, channel_id, topic, dm_key, sender_id, flags, has_link, has_image, has_attachment, has_reaction, json)
    VALUES (@id, @type, @channel_id, @topic, @dm_key, @sender_id, @flags, @has_link, @has_image, @has_attachment, @has_reaction, @json)`);
  const insertFts = raw.prepare('INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)');
  // Batches are built (and their rows derived, for the raw loop) outside the timed part: fetching
  // and parsing are the network's and zod's cost, not the store's.
  const runs = 20;
  const warmup = 3;
  const batches = Array.from({ length: runs + warmup }, (_, i) => batchOf(1 + i * BATCH));
  const rawRows = batches.map((b) => b.map((m) => ({ row: messageRow(m), text: htmlToText(m.content) })));
  let nOurs = 0;
  let nRaw = 0;
  const rawStats = await measure(
    'raw better-sqlite3 insert loop (same rows + search)',
    () =>
      raw.transaction(() => {
        for (const { row, text } of rawRows[nRaw++]!) {
          insert.run(row);
          insertFts.run(row.id, row.topic, text);
        }
      })(),
    { runs, warmup, itemsPerRun: BATCH },
  );
  const oursStats = await measure('upsertMessages (fetched batch)', () => upsertMessages(ours, batches[nOurs++]!, new ChangeCollector()), {
    runs,
    warmup,
    itemsPerRun: BATCH,
  });
  let nAgain = 0;
  const againStats = await measure('upsertMessages (same batch again, unchanged)', () => upsertMessages(ours, batches[nAgain++ % batches.length]!, new ChangeCollector()), {
    runs,
    warmup,
    itemsPerRun: BATCH,
  });
  printTable('Store: ingest of 1,000-message batches', [rawStats, oursStats, againStats], rawStats.name, [
    `upsertMessages runs at ${((100 * rawStats.medianMs) / oursStats.medianMs).toFixed(0)}% of the raw loop's rate (target >= 50%)`,
  ]);
  ours.close();
  raw.close();
}

/** A mix like a busy realm's stream: 40% new messages, 40% flag changes, 20% content edits. */
function eventMix(count: number, storeSize: number): ZulipEvent[] {
  const out: ZulipEvent[] = [];
  let nextId = storeSize + 1;
  for (let i = 0; i < count; i++) {
    const k = i % 10;
    const target = 1 + ((i * 7919) % storeSize);
    if (k < 4) {
      const m = exampleMessage(nextId++);
      out.push(parseEvent({ id: i, type: 'message', message: { ...m, flags: undefined }, flags: m.flags }));
    } else if (k < 8) {
      const flag = k % 2 === 0 ? 'read' : 'starred';
      out.push(parseEvent({ id: i, type: 'update_message_flags', op: k < 6 ? 'add' : 'remove', operation: 'add', flag, messages: [target], all: false }));
    } else {
      out.push(
        parseEvent({
          id: i, type: 'update_message', user_id: 11, rendering_only: false, message_id: target, message_ids: [target], flags: ['read'],
          edit_timestamp: 1_800_000_000 + i, stream_id: 1, orig_content: 'old', orig_rendered_content: '<p>old</p>',
          content: `edit ${i}`, rendered_content: `<p>edit ${i}</p>`, is_me_message: false,
        }),
      );
    }
  }
  for (const e of out) if (e.type === 'malformed' || e.type === 'unknown') throw new Error(`bench event does not parse: ${JSON.stringify(e)}`);
  return out;
}

async function benchEvents(storeSize: number): Promise<void> {
  const db = openLocalDb(':memory:');
  for (let first = 1; first <= storeSize; first += BATCH) upsertMessages(db, batchOf(first).filter((m) => m.id <= storeSize), new ChangeCollector());
  const perRun = 2000;
  const runs = 10;
  const warmup = 2;
  const streams = Array.from({ length: runs + warmup }, (_, r) => eventMix(perRun, storeSize + r * perRun));
  let n = 0;
  const stats = await measure(
    `applyEvents on a ${storeSize.toLocaleString('en')}-message store (100 per transaction)`,
    () => {
      const events = streams[n++]!;
      for (let i = 0; i < events.length; i += 100) {
        db.transaction(() => applyEvents(db, events.slice(i, i + 100), { selfUserId: 10 }, new ChangeCollector()))();
      }
    },
    { runs, warmup, itemsPerRun: perRun },
  );
  const rate = (perRun * 1000) / stats.medianMs;
  printTable('Store: event apply rate', [stats], undefined, [
    'mix: 40% new messages, 40% flag changes (read/starred add/remove), 20% content edits; events parsed beforehand',
    `${rate.toFixed(0)} events/s (target >= 20,000)`,
  ]);
  db.close();
}

export async function benchEngineStore(opts: { messages: number }): Promise<void> {
  await benchIngest();
  await benchEvents(opts.messages);
}
