/**
 * Pages of a search narrow walk the search index in id order (reader.ts) instead of testing every
 * message against all matches: the pages must hold exactly the messages the membership filter
 * (`where`) selects, in order, for every anchor and page size, with other terms, negated search
 * terms and several search terms; and the page read must be driven by the index (plan).
 */
import { describe, expect, it } from 'vitest';
import type { NarrowTerm } from '../../../sync/api/index.js';
import { flagsToBits, HAS_ROW } from '../../../sync/db/flags.js';
import { messageRow } from '../../../sync/db/queries/message-columns.js';
import { writeMessageRow } from '../../../sync/db/queries/messages.js';
import { compileLocalNarrow } from '../../../sync/db/narrow/compile.js';
import { readNarrowPage, readRange } from '../../../sync/engine/narrow/reader.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';
import { localIds } from './narrow-helpers.js';

const WORDS = ['castle', 'ghost', 'castles', 'moon', 'pale', 'night', 'lunch'];

function store() {
  const db = localStore();
  for (let id = 1; id <= 300; id++) {
    const words = [WORDS[id % 7]!, WORDS[(id * 3) % 7]!, WORDS[(id * 5) % 7]!].join(' ');
    const content = `<p>${words}</p>`;
    const m = id % 9 === 0 ? eg.dmMessage({ id, content }) : eg.streamMessage({ id, topic: id % 4 === 0 ? 'ghost stories' : 'lunch', channel: id % 2 ? eg.verona : eg.denmark, content });
    // Every third message without a personal row (channel history): the searches that need one skip it.
    const bits = flagsToBits(id % 5 === 0 ? ['read', 'starred'] : ['read']) | (id % 3 === 0 ? 0 : HAS_ROW);
    writeMessageRow(db, messageRow(m, bits), m.content, true);
  }
  return db;
}

const term = (operator: string, operand: string | number, negated = false) => ({ operator, operand, negated }) as NarrowTerm;

const NARROWS: NarrowTerm[][] = [
  [term('search', 'castle')],
  [term('search', 'pale moo')],
  [term('search', '"pale moon"')],
  [term('search', 'ghost')], // also the topic "ghost stories"
  [term('channel', eg.verona.stream_id), term('search', 'castle')],
  [term('channel', eg.denmark.stream_id), term('topic', 'lunch'), term('search', 'night')],
  [term('is', 'starred'), term('search', 'moon')],
  [term('search', 'castle'), term('search', 'night')],
  [term('search', 'castle'), term('search', 'moon', true)],
  [term('search', 'nothing-matches-this')],
  [term('search', '!!!')], // no searchable word: matches everything
];

describe('search narrow pages', () => {
  it.each(NARROWS.map((n) => [JSON.stringify(n), n] as const))('%s: every page equals the membership filter', (_name, narrow) => {
    const db = store();
    const n = compileLocalNarrow(db, narrow, eg.SELF);
    const all = localIds(db, n.where, n.params);
    expect(readRange(db, n, 0, 10_000).map((r) => r.id)).toEqual(all);
    expect(readRange(db, n, 100, 200).map((r) => r.id)).toEqual(all.filter((id) => id >= 100 && id <= 200));
    for (const [anchor, before, after] of [['newest', 20, 0], ['oldest', 0, 15], [150, 7, 9], [151, 0, 3], [1, 5, 5]] as const) {
      const page = readNarrowPage(db, narrow, { anchor, before, after }, eg.SELF);
      const pivot = anchor === 'newest' ? Infinity : anchor === 'oldest' ? -Infinity : anchor;
      const below = before === 0 ? [] : all.filter((id) => id < pivot).slice(-before);
      const centre = all.filter((id) => id === pivot);
      const above = all.filter((id) => id > pivot).slice(0, after);
      expect(page.messages.map((m) => m.id), `anchor ${anchor}`).toEqual([...(anchor === 'oldest' ? [] : below), ...centre, ...(anchor === 'newest' ? [] : above)]);
    }
    db.close();
  });

  it('the fixture is not trivial: searches find some messages and leave others out', () => {
    const db = store();
    const count = (narrow: NarrowTerm[]) => {
      const n = compileLocalNarrow(db, narrow, eg.SELF);
      return localIds(db, n.where, n.params).length;
    };
    expect(count([term('search', 'castle')])).toBeGreaterThan(30);
    expect(count([term('search', 'castle')])).toBeLessThan(200);
    expect(count([term('search', 'castle'), term('search', 'moon', true)])).toBeGreaterThan(0);
    db.close();
  });

  it('a page of a search narrow walks the search index in id order and stops at the page', () => {
    const db = store();
    const n = compileLocalNarrow(db, [term('channel', eg.verona.stream_id), term('search', 'castle')], eg.SELF);
    expect(n.search?.match).toBe('("castle"*)');
    const detail = db
      .prepare<unknown[], { detail: string }>(
        `EXPLAIN QUERY PLAN SELECT m.id FROM messages_fts f CROSS JOIN messages m ON m.id = f.rowid
          WHERE f.messages_fts MATCH ? AND f.rowid < ? AND (${n.search!.where}) ORDER BY f.rowid DESC LIMIT ?`,
      )
      .all(n.search!.match, 1000, ...n.search!.params, 51)
      .map((r) => r.detail);
    // FTS5 consumes the ORDER BY (no sort of all matches); each match is one primary-key probe.
    expect(detail[0]).toMatch(/^SCAN f VIRTUAL TABLE INDEX \d+:M/);
    expect(detail).toContain('SEARCH m USING INTEGER PRIMARY KEY (rowid=?)');
    expect(detail.some((d) => d.startsWith('USE TEMP B-TREE'))).toBe(false);
    // Negated search terms stay in the filter; no positive term means no index walk.
    expect(compileLocalNarrow(db, [term('search', 'castle', true)], eg.SELF).search).toBeUndefined();
    db.close();
  });
});
