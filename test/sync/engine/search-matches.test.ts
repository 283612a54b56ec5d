/**
 * A search's view fetched online keeps the server's marked matches (`match_content`,
 * `match_subject`: sync/engine/narrow/search-matches.ts) on its messages, for messages it adds and
 * for those it already showed; other views never carry them, an edit drops them (stale marks), and
 * the same search opened offline shows the cached messages without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerQueue, type ApiConnection, type NarrowTerm } from '../../../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { getStoredMessages, upsertMessages } from '../../../sync/db/queries/messages.js';
import { storeRegisterSnapshot } from '../../../sync/db/queries/snapshot.js';
import { ChangeCollector, type StoreChanges } from '../../../sync/db/changes.js';
import { openView, type ViewHost } from '../../../sync/engine/session-views.js';
import { applyChangeSet, type NarrowSnapshot } from '../../../sync/protocol/views.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { connect } from './narrow-helpers.js';
import { until } from './session-helpers.js';

let t: TestServer;
let conn: ApiConnection;
let db: LocalDb;
let self: number;
let online = true;
const listeners = new Set<(c: StoreChanges) => void>();

const host = (): ViewHost => ({
  db,
  conn,
  selfUserId: self,
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  online: () => online,
  onChanges: (l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  emit: (c) => {
    for (const l of listeners) l(c);
  },
});

/** A view and its state as a page sees it (the first snapshot with every change set applied). */
function open(narrow: NarrowTerm[]) {
  let state: NarrowSnapshot | undefined;
  const handle = openView(host(), { narrow, anchor: 'newest', before: 50, after: 0 }, (cs) => {
    state = applyChangeSet(state!, cs);
  });
  state = handle.snapshot;
  return { handle, state: () => state! };
}

beforeAll(async () => {
  t = await startTestServer();
  conn = connect(t, 'hamlet');
  db = openLocalDb(':memory:');
  const snap = await registerQueue(conn, { apply_markdown: true, client_gravatar: false });
  storeRegisterSnapshot(db, snap, new ChangeCollector());
  self = snap.user_id ?? 0;
});
afterAll(async () => {
  db?.close();
  await conn?.close();
  await t?.close();
});

describe("a search's server-marked matches", () => {
  it('are kept for the messages of a search fetched online, and only there', async () => {
    const othello = t.as('othello');
    const first = (await othello.post('/messages', { type: 'stream', to: 'general', topic: 'zanzibar trip', content: 'The **zanzibar** manuscript' })).json.id as number;
    const search: NarrowTerm[] = [{ operator: 'search', operand: 'zanzibar' }];

    // A view of the channel first: the message cached, without marks.
    const channel = open([{ operator: 'channel', operand: 'general' }]);
    await until(() => channel.state().messages.some((m) => m.id === first), 10_000, 'the channel view fills');

    // One the device has not seen: the search's answer adds it, marked.
    const second = (await othello.post('/messages', { type: 'stream', to: 'Verona', topic: 'maps', content: 'Zanzibar again' })).json.id as number;
    expect(getStoredMessages(db, [second])).toEqual([]);

    const view = open(search);
    await until(() => view.state().messages.find((m) => m.id === first)?.match_content !== undefined, 10_000, 'the search shows the marks');
    expect(view.state().messages.find((m) => m.id === second)?.match_content).toBe('<p><span class="highlight">Zanzibar</span> again</p>');
    const shown = view.state().messages.find((m) => m.id === first)!;
    expect(shown.match_content).toBe('<p>The <strong><span class="highlight">zanzibar</span></strong> manuscript</p>');
    expect(shown.match_subject).toBe('<span class="highlight">zanzibar</span> trip');
    expect(shown.content).toBe('<p>The <strong>zanzibar</strong> manuscript</p>');
    // Never stored, never in another view.
    expect(JSON.stringify(getStoredMessages(db, [first]))).not.toContain('highlight');
    expect(channel.state().messages.find((m) => m.id === first)).not.toHaveProperty('match_content');

    // An edit makes the marks stale: they go, the message stays.
    const [stored] = getStoredMessages(db, [first]);
    const changes = new ChangeCollector();
    upsertMessages(db, [{ ...stored!, content: '<p>The zanzibar manuscript, found</p>', last_edit_timestamp: 1_800_000_000 }], changes);
    host().emit(changes.freeze());
    const edited = view.state().messages.find((m) => m.id === first)!;
    expect(edited.content).toBe('<p>The zanzibar manuscript, found</p>');
    expect(edited).not.toHaveProperty('match_content');
    view.handle.close();
    channel.handle.close();

    // Offline, the same search shows what the device has, marked by the renderer instead.
    online = false;
    const offline = open(search);
    expect(offline.state().messages.map((m) => m.id)).toContain(first);
    expect(offline.state().messages.every((m) => m.match_content === undefined)).toBe(true);
    offline.handle.close();
    online = true;
  });
});
