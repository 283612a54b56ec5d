/**
 * Test kinds and fakes for the outbox: a scripted in-memory "server" (messages, stars, snippets)
 * whose calls can be delayed or failed, a manual clock with a fake sleep, and a database.
 */
import * as z from 'zod';
import type { ApiConnection } from '../../../sync/api/core.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { KindRegistry, runtimeKind, type OutboxKind } from '../../../sync/outbox/kinds.js';
import { OutboxStore } from '../../../sync/outbox/store.js';
import { SleepAborted, silentEngineLogger, type Seams } from '../../../sync/base/seams.js';
import { fakeServer } from '../api/fake-transport.js';

export const ctx = { method: 'POST', path: '/test' };

/** One scripted call: the test may delay it (return a promise) or fail it (throw). */
export type Hook = (op: string, key: string) => Promise<void> | void;

export class FakeApi {
  readonly messages = new Map<number, string>();
  readonly stars = new Map<number, boolean>();
  readonly snippets = new Map<number, { title: string; content: string }>();
  /** Moves in the order the server applied them, as `id->topic`. */
  readonly moves: string[] = [];
  readonly calls: string[] = [];
  hook: Hook = () => undefined;
  private nextSnippet = 100;

  async call<T>(op: string, key: string, apply: () => T): Promise<T> {
    this.calls.push(`${op} ${key}`);
    await this.hook(op, key);
    return apply();
  }
  createSnippet(title: string, content: string): number {
    const id = this.nextSnippet++;
    this.snippets.set(id, { title, content });
    return id;
  }
}

const editArgs = z.object({ messageId: z.number(), content: z.string() });
const editBase = z.object({ content: z.string() });
const starArgs = z.object({ messageId: z.number(), starred: z.boolean() });
const snippetCreate = z.object({ tmpId: z.string(), title: z.string(), content: z.string() });
const snippetId = z.union([z.number(), z.string()]);
const snippetEdit = z.object({ snippetId, content: z.string() });
const snippetDelete = z.object({ snippetId });
const moveArgs = z.object({ messageId: z.number(), topic: z.string() });

export function testKinds(api: FakeApi) {
  const edit: OutboxKind<z.infer<typeof editArgs>, z.infer<typeof editBase>> = {
    kind: 'test_edit',
    version: 1,
    argsSchema: editArgs,
    baseSchema: editBase,
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `message:${a.messageId}`,
    send: (_c, a) => api.call('edit', `message:${a.messageId}`, () => void api.messages.set(a.messageId, a.content)),
    verify: (_c, a) => api.call('read', `message:${a.messageId}`, () => (api.messages.get(a.messageId) === a.content ? 'applied' : 'not_applied')),
    // Keep the FIRST base: it is the text the user actually saw.
    coalesce: (prev, next) => (prev.kind === 'test_edit' ? { action: 'merge', args: next.args, base: prev.base } : { action: 'append' }),
  };
  const star: OutboxKind<z.infer<typeof starArgs>, null> = {
    kind: 'test_star',
    version: 1,
    argsSchema: starArgs,
    baseSchema: z.null(),
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `star:${a.messageId}`,
    send: (_c, a) => api.call('star', `star:${a.messageId}`, () => void api.stars.set(a.messageId, a.starred)),
    verify: async (_c, a) => (api.stars.get(a.messageId) === a.starred ? 'applied' : 'not_applied'),
    coalesce: (prev, next) => (prev.kind === 'test_star' ? { action: 'merge', args: next.args, base: null } : { action: 'append' }),
  };
  const create: OutboxKind<z.infer<typeof snippetCreate>, null> = {
    kind: 'test_snippet_create',
    version: 1,
    argsSchema: snippetCreate,
    baseSchema: z.null(),
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `snippet:${a.tmpId}`,
    createsTempIdIn: 'tmpId',
    send: (_c, a) => api.call('create', `snippet:${a.tmpId}`, () => ({ createdId: api.createSnippet(a.title, a.content) })),
    verify: async (_c, a) => {
      const found = [...api.snippets].find(([, s]) => s.title === a.title && s.content === a.content);
      return found ? { status: 'applied', createdId: found[0] } : 'not_applied';
    },
  };
  const editSnippet: OutboxKind<z.infer<typeof snippetEdit>, null> = {
    kind: 'test_snippet_edit',
    version: 1,
    argsSchema: snippetEdit,
    baseSchema: z.null(),
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `snippet:${a.snippetId}`,
    tempIdFields: ['snippetId'],
    send: (_c, a) => api.call('snippet_edit', `snippet:${a.snippetId}`, () => void api.snippets.set(Number(a.snippetId), { title: '?', content: a.content })),
    verify: async (_c, a) => (api.snippets.get(Number(a.snippetId))?.content === a.content ? 'applied' : 'not_applied'),
    coalesce: (prev, next) => {
      const p = snippetCreate.safeParse(prev.args);
      return prev.kind === 'test_snippet_create' && p.success ? { action: 'merge', args: { ...p.data, content: next.args.content }, base: null } : { action: 'append' };
    },
  };
  const del: OutboxKind<z.infer<typeof snippetDelete>, null> = {
    kind: 'test_snippet_delete',
    version: 1,
    argsSchema: snippetDelete,
    baseSchema: z.null(),
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `snippet:${a.snippetId}`,
    tempIdFields: ['snippetId'],
    send: (_c, a) => api.call('snippet_delete', `snippet:${a.snippetId}`, () => void api.snippets.delete(Number(a.snippetId))),
    verify: async (_c, a) => (api.snippets.has(Number(a.snippetId)) ? 'not_applied' : 'applied'),
    coalesce: (prev) => (prev.kind === 'test_snippet_create' ? { action: 'cancel' } : { action: 'append' }),
  };
  // A move reaches beyond its own message: its rows run one at a time across entities.
  const move: OutboxKind<z.infer<typeof moveArgs>, null> = {
    kind: 'test_move',
    version: 1,
    argsSchema: moveArgs,
    baseSchema: z.null(),
    describe: () => ({ text: 'A test change', link: null }),
    entityKey: (a) => `message:${a.messageId}`,
    serialGroup: 'moves',
    send: (_c, a) => api.call('move', `message:${a.messageId}`, () => void api.moves.push(`${a.messageId}->${a.topic}`)),
    verify: async (_c, a) => (api.moves.includes(`${a.messageId}->${a.topic}`) ? 'applied' : 'not_applied'),
  };
  return { edit: runtimeKind(edit), star: runtimeKind(star), create: runtimeKind(create), editSnippet: runtimeKind(editSnippet), del: runtimeKind(del), move: runtimeKind(move) };
}

/** A manual clock whose sleeps resolve only when the test advances time. */
export function fakeTime(start = 1_700_000_000_000) {
  let now = start;
  const sleepers: { until: number; resolve: () => void }[] = [];
  const requested: number[] = [];
  const seams: Partial<Seams> = {
    clock: { now: () => now },
    random: () => 0.5,
    logger: silentEngineLogger,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        requested.push(ms);
        const s = { until: now + ms, resolve };
        sleepers.push(s);
        signal?.addEventListener('abort', () => {
          sleepers.splice(sleepers.indexOf(s), 1);
          reject(new SleepAborted());
        });
      }),
  };
  return {
    seams,
    requested,
    now: () => now,
    advance(ms: number) {
      now += ms;
      for (const s of sleepers.filter((x) => x.until <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.resolve();
      }
    },
  };
}

export interface Fixture {
  db: LocalDb;
  api: FakeApi;
  kinds: ReturnType<typeof testKinds>;
  store: OutboxStore;
  time: ReturnType<typeof fakeTime>;
  conn: ApiConnection;
}

export function fixture(db: LocalDb = openLocalDb(':memory:')): Fixture {
  const api = new FakeApi();
  const kinds = testKinds(api);
  const time = fakeTime();
  const store = new OutboxStore(db, new KindRegistry(Object.values(kinds)), { now: time.now });
  return { db, api, kinds, store, time, conn: fakeServer().conn };
}

/** A promise the test settles by hand, to hold a request in flight. */
export function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
