/**
 * Retiring local echoes after an event batch reads only the send rows that went over while their
 * echo was cached (a TEMP table triggers keep), never every echo: 1,000 messages waiting to be sent
 * cost the batch end step nothing. And it finds exactly what joining every echo to its row finds,
 * whatever happens to the rows and echoes in between (states, deletions, echoes stored late,
 * echoes removed another way, a rolled-back first use).
 */
import { describe, expect, it } from 'vitest';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { LOCAL_ECHO_MIN_ID } from '../../../sync/db/queries/messages.js';
import { echoesOfOverRows, forgetEchoOver } from '../../../sync/db/queries/outbox.js';

/** What `echoesOfOverRows` answered before: every cached echo joined to its row. */
const REFERENCE = `SELECT m.id AS echo_id, o.state AS state, o.history AS history FROM messages m
  LEFT JOIN outbox o ON o.id = m.id - ${LOCAL_ECHO_MIN_ID}
  WHERE m.id > ${LOCAL_ECHO_MIN_ID} AND (o.id IS NULL OR o.state IN ('done', 'discarded')) ORDER BY m.id`;

const OVER = new Set(['done', 'discarded']);
/** The entries the retiring step acts on (the rest are stale and dropped), as the reference's rows. */
function current(db: LocalDb) {
  return echoesOfOverRows(db)
    .filter((r) => r.cached === 1 && (r.state === null || OVER.has(r.state)))
    .map(({ cached: _c, ...r }) => r);
}

function setup() {
  const db = openLocalDb(':memory:');
  const row = db.prepare<[string]>("INSERT INTO outbox (kind, kind_version, entity_key, args, state, created_at, updated_at) VALUES ('send_message', 1, 'conversation:1', '{}', ?, 1, 1)");
  const echo = db.prepare<[number]>("INSERT INTO messages (id, type, sender_id, json) VALUES (?, 'stream', 10, '{}')");
  const send = (state = 'queued') => {
    const id = Number(row.run(state).lastInsertRowid);
    echo.run(LOCAL_ECHO_MIN_ID + id);
    return id;
  };
  const setState = (id: number, state: string) => db.prepare('UPDATE outbox SET state = ? WHERE id = ?').run(state, id);
  return { db, send, setState, echo };
}

describe('echoes of send rows that are over', () => {
  it('are found through the table of rows that went over, not by reading every echo', () => {
    const { db, send } = setup();
    for (let i = 0; i < 1000; i++) send();
    expect(echoesOfOverRows(db)).toEqual([]);
    const plan = db
      .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN SELECT * FROM outbox_echoes_over e LEFT JOIN outbox o ON o.id = e.row_id`)
      .all()
      .map((r) => r.detail);
    expect(plan.some((d) => /SCAN e\b/.test(d))).toBe(true);
    expect(db.prepare('SELECT count(*) FROM outbox_echoes_over').pluck().get()).toBe(0);
    db.close();
  });

  it('answer what the join over every echo answers, through states, deletions, late echoes and forgotten entries', () => {
    const { db, send, setState, echo } = setup();
    const ids = Array.from({ length: 12 }, () => send());
    const check = () => expect(current(db)).toEqual(db.prepare(REFERENCE).all());
    check();
    setState(ids[0]!, 'sending');
    setState(ids[1]!, 'done');
    setState(ids[2]!, 'discarded');
    db.prepare("UPDATE outbox SET history = '[{\"note\":{\"created_id\":77}}]' WHERE id = ?").run(ids[1]!);
    check();
    // A pruned row: its echo is now an echo of nothing.
    setState(ids[3]!, 'done');
    db.prepare('DELETE FROM outbox WHERE id = ?').run(ids[3]!);
    // A row deleted while live (its echo stays, as an echo of nothing).
    db.prepare('DELETE FROM outbox WHERE id = ?').run(ids[4]!);
    check();
    // An echo removed another way (the echoed event), then its row goes over: nothing to retire.
    db.prepare('DELETE FROM messages WHERE id = ?').run(LOCAL_ECHO_MIN_ID + ids[5]!);
    setState(ids[5]!, 'done');
    check();
    // An echo stored while its row is already over, and one for a row that never was.
    setState(ids[6]!, 'discarded');
    db.prepare('DELETE FROM messages WHERE id = ?').run(LOCAL_ECHO_MIN_ID + ids[6]!);
    echo.run(LOCAL_ECHO_MIN_ID + ids[6]!);
    echo.run(LOCAL_ECHO_MIN_ID + 500);
    check();
    // A row live again after going over keeps its echo.
    setState(ids[7]!, 'done');
    setState(ids[7]!, 'queued');
    check();
    // Retiring: the echo goes, then the entry.
    for (const r of current(db)) {
      db.prepare('DELETE FROM messages WHERE id = ?').run(r.echo_id);
      forgetEchoOver(db, r.echo_id);
    }
    check();
    expect(current(db)).toEqual([]);
    db.close();
  });

  it('still tracks rows after a first use rolled back with its transaction', () => {
    const { db, send, setState } = setup();
    const a = send();
    expect(() =>
      db.transaction(() => {
        echoesOfOverRows(db);
        throw new Error('the batch failed');
      })(),
    ).toThrow('the batch failed');
    setState(a, 'discarded');
    expect(current(db)).toEqual(db.prepare(REFERENCE).all());
    expect(current(db).map((r) => r.echo_id)).toEqual([LOCAL_ECHO_MIN_ID + a]);
    db.close();
  });
});
