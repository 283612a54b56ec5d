/**
 * An account session wired to the reference server through the fault proxy, with its clock
 * aligned to the server's (the realm's edit limits and verify-by-reading compare the two), and a
 * live narrow view kept current by applying its change sets, as the renderer does.
 */
import type { Transport } from '../../../sync/api/index.js';
import type { Seams } from '../../../sync/base/seams.js';
import type { AccountSession } from '../../../sync/engine/session.js';
import { applyChangeSet, type NarrowSnapshot } from '../../../sync/protocol/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import type { TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from '../engine/session-helpers.js';

export interface SessionEnv {
  readonly s: AccountSession;
  readonly proxy: FaultProxy;
  close(): Promise<void>;
}

export async function sessionEnv(t: TestServer, who = 'hamlet', opts: { transport?: Transport; seams?: Partial<Seams> } = {}): Promise<SessionEnv> {
  const proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
  const dir = tempDir();
  const base = t.clock.now();
  const started = Date.now();
  const s = openSession({ url: proxy.url, server: t.server }, dir.dir, who, {
    timeoutMs: 3_000,
    ...(opts.transport ? { transport: opts.transport } : {}),
    seams: { clock: { now: () => base + (Date.now() - started) }, ...opts.seams },
  });
  s.start();
  await until(() => s.status.state === 'live', 10_000, 'live');
  return {
    s,
    proxy,
    async close() {
      await s.close();
      await proxy.close();
      dir.cleanup();
    },
  };
}

/** A live narrow view as the UI holds it: the snapshot with every change set applied. */
export function watch(s: AccountSession, narrow: Array<{ operator: string; operand: string | number }>): { view: () => NarrowSnapshot; close: () => void } {
  let snap: NarrowSnapshot | undefined;
  const early: Parameters<typeof applyChangeSet>[1][] = [];
  const h = s.openNarrow({ narrow, anchor: 'newest', before: 50, after: 0 }, (cs) => {
    if (snap) snap = applyChangeSet(snap, cs);
    else early.push(cs);
  });
  snap = early.reduce(applyChangeSet, h.snapshot);
  return { view: () => snap ?? h.snapshot, close: () => h.close() };
}

/** The server's raw messages of a Verona topic as hamlet reads them, oldest first. */
export async function serverTopic(t: TestServer, topic: string): Promise<Array<{ id: number; content: string }>> {
  const r = await t.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    apply_markdown: false,
    narrow: [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: topic },
    ],
  });
  return (r.json.messages as Array<{ id: number; content: string }>).sort((a, b) => a.id - b.id);
}
