/**
 * Live narrow views: after random sequences of adds (new and backfilled ids), edits, flag changes,
 * topic / channel moves, deletions, topic muting and window growth, every change set applied to the
 * previous snapshot gives exactly the new snapshot, and that snapshot is exactly the narrow's
 * cached messages in the view's window (checked against an independent predicate in JS).
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../sync/api/index.js';
import type { LocalDb } from '../../../sync/db/open.js';
import { deleteMessages, getStoredMessages, upsertMessages } from '../../../sync/db/queries/messages.js';
import { putUserTopic } from '../../../sync/db/queries/personal.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { LiveNarrowView } from '../../../sync/engine/narrow/view.js';
import { applyChangeSet, narrowChangeSetSchema, narrowSnapshotSchema } from '../../../sync/protocol/views.js';
import { seededRandom } from '../../../sync/base/seams.js';
import * as eg from '../../support/eg.js';
import { localStore } from '../../support/eg-store.js';

const [SELF, VERONA, DENMARK] = [eg.SELF, eg.verona.stream_id, eg.denmark.stream_id];

/** Deterministic, so a failure replays from its seed. */
const prng = seededRandom;

const TOPICS = ['castle', 'Castle', 'ghost', 'lunch'];
interface Case {
  readonly name: string;
  readonly narrow: unknown;
  readonly matches: (m: Message) => boolean;
}
const CASES: Case[] = [
  { name: 'topic', narrow: [['stream', 'Verona'], ['topic', 'castle']], matches: (m) => m.type === 'stream' && m.stream_id === VERONA && m.subject.toLowerCase() === 'castle' },
  { name: 'channel', narrow: [{ operator: 'channel', operand: DENMARK }], matches: (m) => m.type === 'stream' && m.stream_id === DENMARK },
  { name: 'starred', narrow: [{ operator: 'is', operand: 'starred' }], matches: (m) => m.flags.includes('starred') },
  { name: 'dm', narrow: [{ operator: 'dm', operand: [11] }], matches: (m) => m.type === 'private' },
  {
    name: 'in:home (muting reconciles)',
    narrow: [{ operator: 'in', operand: 'home' }],
    matches: () => true, // refined below with the muted topics
  },
];

function randomMessage(r: () => number, id: number): Message {
  if (r() < 0.15) return eg.dmMessage({ id, participants: [SELF, 11] });
  const m = eg.streamMessage({ id, topic: TOPICS[Math.floor(r() * TOPICS.length)], channel: r() < 0.6 ? eg.verona : eg.denmark });
  return r() < 0.3 ? { ...m, flags: ['starred'] } : m;
}

function mutate(db: LocalDb, r: () => number, changes: ChangeCollector): void {
  const ids = db.prepare('SELECT id FROM messages ORDER BY id').pluck().all() as number[];
  const pick = () => ids[Math.floor(r() * ids.length)]!;
  const x = r();
  if (x < 0.3 || ids.length < 5) {
    const count = 1 + Math.floor(r() * 3);
    const fresh: Message[] = [];
    for (let i = 0; i < count; i++) {
      // Mostly new messages at the top, some backfilled into holes below.
      const id = r() < 0.7 ? (ids.at(-1) ?? 0) + 1 + i : 1 + Math.floor(r() * 3000);
      if (!ids.includes(id)) fresh.push(randomMessage(r, id));
    }
    upsertMessages(db, fresh, changes);
  } else if (x < 0.65) {
    const [m] = getStoredMessages(db, [pick()]);
    if (!m) return;
    const y = r();
    let next: Message;
    if (y < 0.3) next = { ...m, flags: m.flags.includes('starred') ? m.flags.filter((f) => f !== 'starred') : [...m.flags, 'starred'] };
    else if (y < 0.55 && m.type === 'stream') next = { ...m, subject: TOPICS[Math.floor(r() * TOPICS.length)]!, last_moved_timestamp: 1_800_000_000 };
    else if (y < 0.7 && m.type === 'stream') next = { ...m, stream_id: m.stream_id === VERONA ? DENMARK : VERONA };
    else next = { ...m, content: `<p>edited ${r()}</p>`, last_edit_timestamp: 1_800_000_000 };
    upsertMessages(db, [next], changes);
  } else if (x < 0.8) {
    deleteMessages(db, [pick(), pick()], changes);
  } else {
    const topic = TOPICS[Math.floor(r() * TOPICS.length)]!;
    putUserTopic(db, { stream_id: VERONA, topic_name: topic, visibility_policy: r() < 0.5 ? 1 : 0, last_updated: 0 });
    changes.touched('user_topics');
  }
}

function expectedIds(db: LocalDb, c: Case, lo: number, hi: number): number[] {
  const muted = new Set((db.prepare('SELECT channel_id, topic FROM user_topics WHERE visibility_policy = 1').all() as Array<{ channel_id: number; topic: string }>).map((u) => `${u.channel_id}:${u.topic.toLowerCase()}`));
  const all = getStoredMessages(db, db.prepare('SELECT id FROM messages').pluck().all() as number[]);
  return all
    .filter((m) => m.id >= lo && m.id <= hi)
    .filter((m) => (c.name.startsWith('in:home') ? !(m.type === 'stream' && muted.has(`${m.stream_id}:${m.subject.toLowerCase()}`)) : c.matches(m)))
    .map((m) => m.id);
}

describe('LiveNarrowView', () => {
  for (const c of CASES) {
    for (const anchor of ['newest', 'mid'] as const) {
      it(`${c.name}, anchor ${anchor}: apply(old, changeSet) == new snapshot at every step (3 seeds x 150 steps)`, () => {
        const seen = { added: 0, updated: 0, removed: 0 };
        for (const seed of [1, 2, 3]) {
          const r = prng(seed * 7919 + c.name.length);
          const db = localStore();
          upsertMessages(db, Array.from({ length: 300 }, (_, i) => randomMessage(r, 10 + i * 3)), new ChangeCollector());
          const view = LiveNarrowView.open(db, c.narrow, { anchor: anchor === 'newest' ? 'newest' : 500, before: 15, after: 15 }, SELF);
          let snap = narrowSnapshotSchema.parse(view.snapshot());
          for (let step = 0; step < 150; step++) {
            let cs;
            const g = r();
            if (g < 0.06) cs = view.loadOlder(1 + Math.floor(r() * 10));
            else if (g < 0.12) cs = view.loadNewer(1 + Math.floor(r() * 10));
            else {
              const changes = new ChangeCollector();
              mutate(db, r, changes);
              cs = view.apply(changes.freeze());
            }
            narrowChangeSetSchema.parse(cs);
            seen.added += cs.added.length;
            seen.updated += cs.updated.length;
            seen.removed += cs.removed.length;
            const next = view.snapshot();
            expect(applyChangeSet(snap, cs), `seed ${seed} step ${step}`).toEqual(next);
            const { lo, hi } = view.bounds;
            expect(next.messages.map((m) => m.id), `seed ${seed} step ${step}`).toEqual(expectedIds(db, c, lo, hi));
            snap = next;
          }
        }
        // The sequences really moved messages in, changed them and moved them out.
        expect(seen.added).toBeGreaterThan(10);
        expect(seen.updated).toBeGreaterThan(5);
        expect(seen.removed).toBeGreaterThan(5);
      });
    }
  }

  it('reports nothing for changes outside the window or the narrow, and shows the current channel name', () => {
    const db = localStore();
    upsertMessages(db, [eg.streamMessage({ id: 10 }), eg.streamMessage({ id: 20 }), eg.streamMessage({ id: 30, topic: 'other' })], new ChangeCollector());
    const view = LiveNarrowView.open(db, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'castle' }], { anchor: 'newest', before: 50, after: 0 }, SELF);
    expect(view.snapshot().messages.map((m) => [m.id, m.channel_name, m.topic, m.type])).toEqual([[10, 'Verona', 'castle', 'channel'], [20, 'Verona', 'castle', 'channel']]);
    const changes = new ChangeCollector();
    upsertMessages(db, [eg.streamMessage({ id: 40, topic: 'other' })], changes);
    expect(view.apply(changes.freeze())).toEqual({ added: [], updated: [], removed: [] });
    const again = new ChangeCollector();
    upsertMessages(db, [eg.streamMessage({ id: 50 })], again);
    const cs = view.apply(again.freeze());
    expect(cs.added.map((m) => m.id)).toEqual([50]);
    db.prepare("UPDATE channels SET name = 'Verona2' WHERE id = ?").run(VERONA);
    const renamed = new ChangeCollector();
    renamed.touched('channels');
    expect(view.apply(renamed.freeze()).updated.map((m) => m.channel_name)).toEqual(['Verona2', 'Verona2', 'Verona2']);
  });
});
