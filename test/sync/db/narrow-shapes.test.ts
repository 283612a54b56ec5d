/**
 * The common narrows' own statements (one channel, a channel's topic, one DM conversation,
 * `is:starred`: `CompiledLocalNarrow.shape`, db/queries/narrow-rows.ts) answer exactly what the
 * generic compiled filter answers, over a seeded store: every span kind, random and edge anchors,
 * limits, whole pages, with and without a live outbox row (which adds a column), and each reads
 * its own index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { compileLocalNarrow, type CompiledLocalNarrow } from '../../../sync/db/narrow/compile.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { LOCAL_ECHO_MIN_ID, upsertMessages } from '../../../sync/db/queries/messages.js';
import { narrowRowsIn, plainRowsSql, type IdSpan } from '../../../sync/db/queries/narrow-rows.js';
import { readCompiledPage, resolvePivot } from '../../../sync/engine/narrow/reader.js';
import type { Message } from '../../../sync/api/index.js';
import * as eg from '../../support/eg.js';

/** A small deterministic PRNG (mulberry32), so a failure names its seed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = ['castle', 'Castle', 'CASTLE', 'moat', ''];
const DMS = [[eg.othello.user_id], [eg.othello.user_id, eg.cordelia.user_id], [eg.iago.user_id]];
const FLAG_SETS = [[], ['read'], ['read', 'starred'], ['starred'], ['read', 'historical'], ['read', 'historical', 'starred'], ['mentioned']];

let db: LocalDb;
let messages: Message[];
let ids: number[];

beforeAll(() => {
  db = openLocalDb(':memory:');
  for (const p of eg.cast) db.prepare('INSERT INTO users (id, email, full_name, json) VALUES (?, ?, ?, ?)').run(p.user_id, p.email, p.full_name, '{}');
  // Verona renamed since its messages were fetched: pages show the current name.
  for (const c of eg.places) db.prepare('INSERT INTO channels (id, name, json) VALUES (?, ?, ?)').run(c.stream_id, c === eg.verona ? 'Verona (renamed)' : c.name, '{}');
  const rnd = prng(23);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  messages = [];
  for (let id = 1; messages.length < 700; id += 1 + Math.floor(rnd() * 3)) {
    const flags = pick(FLAG_SETS);
    messages.push(
      rnd() < 0.2
        ? eg.dmMessage({ id, participants: [eg.SELF, ...pick(DMS)], flags })
        : eg.streamMessage({ id, channel: pick(eg.places), topic: pick(TOPICS), flags }),
    );
  }
  // Local echoes (ids from LOCAL_ECHO_MIN_ID up) with their send rows (done: no row is live yet).
  for (const [k, m] of [eg.streamMessage({ channel: eg.verona, topic: 'castle' }), eg.dmMessage({ participants: [eg.SELF, eg.othello.user_id] })].entries()) {
    const row = db
      .prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('send_message', 1, ?, '{}', 'done', 0, 0)")
      .run(`send:${k}`).lastInsertRowid;
    messages.push({ ...m, id: LOCAL_ECHO_MIN_ID + Number(row), flags: ['read', 'starred'] });
  }
  upsertMessages(db, messages, new ChangeCollector());
  ids = messages.map((m) => m.id);
});

const NARROWS: ReadonlyArray<{ shape: string; narrow: unknown }> = [
  { shape: 'channel', narrow: [{ operator: 'channel', operand: eg.verona.stream_id }] },
  { shape: 'channel', narrow: [{ operator: 'stream', operand: 'DENMARK' }] },
  { shape: 'topic', narrow: [{ operator: 'channel', operand: eg.verona.stream_id }, { operator: 'topic', operand: 'castle' }] },
  { shape: 'topic', narrow: [{ operator: 'topic', operand: 'MOAT' }, { operator: 'channel', operand: 'general' }] },
  { shape: 'topic', narrow: [{ operator: 'channel', operand: eg.scotland.stream_id }, { operator: 'topic', operand: '' }] },
  { shape: 'dm', narrow: [{ operator: 'dm', operand: [eg.othello.user_id] }] },
  { shape: 'dm', narrow: [{ operator: 'dm', operand: 'cordelia@example.com,othello@example.com' }] },
  { shape: 'dm', narrow: [{ operator: 'pm-with', operand: [eg.iago.user_id] }, { operator: 'near', operand: '40' }] },
  { shape: 'starred', narrow: [{ operator: 'is', operand: 'starred' }] },
];

/** The same narrow without its shape: the readers fall back to the compiler's generic filter. */
const generic = (n: CompiledLocalNarrow): CompiledLocalNarrow => ({ ...n, shape: undefined });

function spans(rnd: () => number): IdSpan[] {
  const maxId = Math.max(...ids.filter((id) => id < LOCAL_ECHO_MIN_ID));
  const anchor = () => (rnd() < 0.5 ? ids[Math.floor(rnd() * ids.length)]! : Math.floor(rnd() * (maxId + 2)));
  const edges = [0, 1, ids[0]!, maxId, maxId + 1, LOCAL_ECHO_MIN_ID, LOCAL_ECHO_MIN_ID + 1, Number.MAX_SAFE_INTEGER];
  const out: IdSpan[] = [];
  for (const e of edges) out.push({ below: e }, { above: e }, { from: e, to: Number.MAX_SAFE_INTEGER }, { from: 0, to: e });
  for (let i = 0; i < 8; i++) {
    const [a, b] = [anchor(), anchor()].sort((x, y) => x - y);
    out.push({ below: anchor() }, { above: anchor() }, { from: a!, to: b! });
  }
  return out;
}

function compareAll(seed: number, liveColumn: boolean): number {
  let rowsCompared = 0;
  for (const { shape, narrow } of NARROWS) {
    const n = compileLocalNarrow(db, narrow, eg.SELF);
    expect(n.shape?.kind, JSON.stringify(narrow)).toBe(shape);
    expect(plainRowsSql(db, n, { below: 1 }).sql.includes('AS local')).toBe(liveColumn);
    const rnd = prng(seed);
    for (const span of spans(rnd)) {
      for (const limit of [3, -1]) {
        const got = narrowRowsIn(db, n, span, limit);
        expect(got, `${JSON.stringify(narrow)} ${JSON.stringify(span)} limit ${limit}`).toEqual(narrowRowsIn(db, generic(n), span, limit));
        rowsCompared += got.length;
      }
    }
    for (let i = 0; i < 12; i++) {
      const anchor = i === 0 ? 'newest' : i === 1 ? 'oldest' : i === 2 ? 'first_unread' : ids[Math.floor(rnd() * ids.length)]! + Math.floor(rnd() * 3) - 1;
      const [before, after] = [Math.floor(rnd() * 60), Math.floor(rnd() * 60)];
      const page = readCompiledPage(db, n, resolvePivot(db, n, anchor), before, after);
      expect(page, `${JSON.stringify(narrow)} page at ${anchor}, ${before} before, ${after} after`).toEqual(
        readCompiledPage(db, generic(n), resolvePivot(db, generic(n), anchor), before, after),
      );
    }
  }
  return rowsCompared;
}

describe('the common narrows run their own statements', () => {
  it('answer what the generic filter answers: rows, channel names, echo markers, pages', () => {
    expect(compareAll(1, false)).toBeGreaterThan(2_000);
  });

  it('answer the same with live outbox rows, whose markers are a column of their own', () => {
    const on = messages.find((m) => m.type === 'stream' && m.id > 300)!;
    db.prepare("UPDATE outbox SET state = 'queued' WHERE kind = 'send_message'").run();
    db.prepare("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('update_message', 1, ?, '{}', 'failed', 0, 0)").run(`message:${on.id}`);
    try {
      expect(compareAll(2, true)).toBeGreaterThan(2_000);
      // The marker is on the page of the message's narrows.
      const n = compileLocalNarrow(db, [{ operator: 'channel', operand: on.stream_id! }], eg.SELF);
      expect(narrowRowsIn(db, n, { from: on.id, to: on.id }, -1)[0]?.local).toMatch(/"failed"/);
    } finally {
      db.prepare("DELETE FROM outbox WHERE entity_key LIKE 'message:%'").run();
      db.prepare("UPDATE outbox SET state = 'done' WHERE kind = 'send_message'").run();
    }
  });

  it('each reads its own index, in id order, with no sort', () => {
    const index: Record<string, string> = { channel: 'messages_by_channel', topic: 'messages_by_topic_key', dm: 'messages_by_dm', starred: 'messages_starred' };
    for (const { shape, narrow } of NARROWS) {
      const n = compileLocalNarrow(db, narrow, eg.SELF);
      for (const span of [{ below: 100 }, { above: 100 }, { from: 10, to: 100 }] satisfies IdSpan[]) {
        const { sql, params } = plainRowsSql(db, n, span);
        // The statement's own steps (a live row's marker subqueries are children of their own).
        const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, 51) as Array<{ parent: number; detail: string }>;
        const plan = steps.filter((r) => r.parent === 0).map((r) => r.detail).join('; ');
        expect(plan, `${JSON.stringify(narrow)} ${JSON.stringify(span)}`).toMatch(new RegExp(`^SEARCH m USING INDEX ${index[shape]} \\(.*id[<>]`));
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    }
  });
});
