/**
 * The convergence check shared by the convergence tests: 50 seeded narrows are loaded (fetched
 * once, and held open as live views fed by the session's store changes) before the scenario; after
 * it, each narrow's local answer must equal the server's `GET /messages` answer as hamlet, message
 * by message and field by field (flags as sorted sets).
 *
 * Not compared, with the reason: `match_content` / `match_subject` exist only in search answers
 * (no search narrow is generated for that reason). Everything else compares exactly, including
 * narrows on Scotland (hamlet is not subscribed: no events, so the fetcher re-reads them).
 */
import { expect } from 'vitest';
import { message as messageSchema } from '../../../sync/api/index.js';
import { getStoredMessages } from '../../../sync/db/queries/messages.js';
import { ChangeCollector, type StoreChanges } from '../../../sync/db/changes.js';
import { fetchNarrowPage } from '../../../sync/engine/narrow/fetcher.js';
import { LiveNarrowView } from '../../../sync/engine/narrow/view.js';
import type { AccountSession } from '../../../sync/engine/session.js';
import { applyChangeSet, type NarrowSnapshot } from '../../../sync/protocol/index.js';
import type { TestServer } from '../../server/harness.js';
import { randomNarrow, type Scenario } from './scenario.js';
import { until } from './session-helpers.js';

export type WireNarrow = ReturnType<typeof randomNarrow>;
const PAGE = { anchor: 'newest' as const, before: 2000, after: 0 };
const FORMAT = { apply_markdown: true, client_gravatar: false, allow_empty_topic_name: true };

export function seededNarrows(scenario: Scenario, t: TestServer, count = 50): WireNarrow[] {
  const ids: Record<string, number> = {};
  for (const u of ['iago', 'othello', 'cordelia', 'desdemona', 'shiva', 'hamlet']) ids[u] = t.userId(u);
  const out: WireNarrow[] = [];
  for (let i = 0; i < count; i++) {
    out.push(randomNarrow((xs) => scenario.pick(xs), scenario.random, ids));
  }
  return out;
}

/** Live views over the narrows, fed by the session; their snapshots are replayed from change sets. */
export class OpenViews {
  readonly views: Array<{ view: LiveNarrowView; snapshot: NarrowSnapshot }> = [];
  private readonly off: () => void;
  constructor(
    private readonly session: AccountSession,
    readonly narrows: readonly WireNarrow[],
  ) {
    this.off = session.onChanges((c) => this.feed(c));
  }
  async load(): Promise<void> {
    const self = this.session.selfUserId!;
    for (const n of this.narrows) {
      const changes = new ChangeCollector();
      await fetchNarrowPage(this.session.db, n, PAGE, { conn: this.session.conn, selfUserId: self, changes });
      if (!changes.empty) this.feed(changes.freeze());
      const view = LiveNarrowView.open(this.session.db, n, PAGE, self);
      this.views.push({ view, snapshot: view.snapshot() });
    }
  }
  feed(c: StoreChanges): void {
    for (const v of this.views) v.snapshot = applyChangeSet(v.snapshot, v.view.apply(c));
  }
  close(): void {
    this.off();
  }
}

/** Wait until the session has applied everything the server did so far (a marker message arrives). */
export async function caughtUp(t: TestServer, session: AccountSession): Promise<void> {
  const r = await t.as('iago').post('/messages', { type: 'channel', to: 'general', topic: 'marker', content: 'sync marker' });
  const id = r.json.id as number;
  await until(() => getStoredMessages(session.db, [id]).length === 1, 20_000, `marker ${id}`);
}

function normalise(m: Record<string, unknown>): Record<string, unknown> {
  const flags = Array.isArray(m.flags) ? [...(m.flags as string[])].sort() : m.flags;
  return { ...m, flags };
}

export interface ConvergenceReport {
  readonly narrows: number;
  readonly messagesCompared: number;
  /** Narrows the local store could not answer alone after the scenario (fetched the missing part). */
  readonly fetchedAfter: number;
}

/** Compare every narrow: the local answer (fetching only what is missing) vs the server's. */
export async function compareNarrows(t: TestServer, session: AccountSession, views: OpenViews): Promise<ConvergenceReport> {
  let messagesCompared = 0;
  let fetchedAfter = 0;
  const self = session.selfUserId!;
  for (const [i, narrow] of views.narrows.entries()) {
    const changes = new ChangeCollector();
    const page = await fetchNarrowPage(session.db, narrow, PAGE, { conn: session.conn, selfUserId: self, changes });
    if (page.requests > 0) fetchedAfter++;
    if (!changes.empty) views.feed(changes.freeze());
    const res = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: PAGE.before, num_after: 0, narrow, ...FORMAT });
    expect(res.status, JSON.stringify(narrow)).toBe(200);
    const server = (res.json.messages as unknown[]).map((m) => normalise(messageSchema.parse(m) as Record<string, unknown>));
    const label = `narrow #${i} ${JSON.stringify(narrow)}`;
    const localIds = page.messages.map((m) => m.id);
    expect(page.before.complete, label).toBe(true);
    expect(localIds, label).toEqual(server.map((m) => m.id));
    const stored = getStoredMessages(session.db, localIds).map((m) => normalise(m as unknown as Record<string, unknown>));
    for (let k = 0; k < server.length; k++) expect(stored[k], `${label} message ${String(server[k]!.id)}`).toEqual(server[k]);
    // The live view, replayed from its change sets, equals the view's own snapshot and shows
    // exactly the locally answered messages within its window.
    const v = views.views[i]!;
    expect(v.snapshot, label).toEqual(v.view.snapshot());
    const shown = v.snapshot.messages.map((m) => m.id);
    expect(shown, label).toEqual(localIds.filter((id) => id >= (shown[0] ?? Infinity)));
    messagesCompared += server.length;
  }
  return { narrows: views.narrows.length, messagesCompared, fetchedAfter };
}
