/**
 * Damaged data is a state the app handles (docs/sync-design.md "Damaged data"): a truncated
 * database file, a broken header and a damaged page of the message cache each open through the
 * engine service with the queued changes and drafts salvaged into a fresh database, the damaged
 * file kept aside, the person told in words, the cache fetched again, the queued changes landing
 * once and in order, and sign-out working.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineLogger } from '../../../sync/base/seams.js';
import type { RpcResult } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { FaultProxy } from '../../support/fault-proxy.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

let t: TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  t = await startTestServer();
  proxy = await FaultProxy.start(t.url, { maxStallMs: 2_000 });
});
afterAll(async () => {
  await proxy.close();
  await t.close();
});
afterEach(() => proxy.resume());

function recordingLogger() {
  const errors: Array<{ message: string; data: unknown }> = [];
  const logger: EngineLogger = { info: () => undefined, warn: () => undefined, error: (message, data) => errors.push({ message, data }) };
  return { logger, errors };
}

function service(dir: string, secrets: MemorySecretStore, logger: EngineLogger) {
  // The engine's clock runs from the server's: verifying a send compares the two.
  const base = t.clock.now();
  const started = Date.now();
  const clock = { now: () => base + (Date.now() - started) };
  const svc = new EngineService({ dataDir: dir, secrets, seams: { logger, sleep: quickSleep, clock }, timeoutMs: 3_000 });
  const client = svc.connect(() => undefined);
  const invoke = (name: string, payload: unknown = {}): Promise<RpcResult> => client.invoke(name, payload);
  const call = async (name: string, payload: unknown = {}): Promise<unknown> => {
    const r = await invoke(name, payload);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value;
  };
  return { svc, invoke, call };
}

const dbFile = (dir: string) => path.join(dir, readdirSync(dir).find((f) => f.endsWith('.sqlite'))!);

/** Pages of each table and index (SQLite's dbstat), for damaging the right bytes. */
function pagesOf(file: string): { pageSize: number; pages: Map<string, number[]>; total: number } {
  const db = new Database(file, { readonly: true });
  try {
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const pages = new Map<string, number[]>();
    for (const r of db.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat ORDER BY pageno').all()) {
      pages.set(r.name, [...(pages.get(r.name) ?? []), r.pageno]);
    }
    return { pageSize, pages, total: Number(db.pragma('page_count', { simple: true })) };
  } finally {
    db.close();
  }
}

function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

const TOPIC = (label: string) => `damaged ${label} ${Date.now()}`;

/**
 * Signed in as `who`, offline: two sends to one topic, a settings change and two drafts queued;
 * the service closed (the database checkpointed and closed as the app leaves it).
 */
async function queuedThenClosed(dir: string, who: string, label: string) {
  const secrets = new MemorySecretStore();
  const quiet = recordingLogger();
  const first = service(dir, secrets, quiet.logger);
  const account = (await first.call('signIn', { realm_url: proxy.url, email: `${who}@example.com`, credentials: { password: 'sandbox' } })) as { id: string };
  await until(() => first.svc.activeSession?.status.state === 'live', 10_000, 'live');
  const s = first.svc.activeSession!;
  const verona = s.queries.channels().find((c) => c.name === 'Verona')!.channel_id;
  await proxy.pause();
  await until(() => s.status.state !== 'live', 10_000, 'offline');
  const topic = TOPIC(label);
  await first.call('sendMessage', { to: { type: 'channel', channel_id: verona, topic }, content: `${label} first` });
  await first.call('sendMessage', { to: { type: 'channel', channel_id: verona, topic }, content: `${label} second` });
  const fontSize = 12 + (Date.now() % 7);
  await first.call('updateSettings', { settings: { web_font_size_px: fontSize } });
  await first.call('saveDraft', { to: { type: 'direct', user_ids: [s.selfUserId!] }, content: `${label} note to self` });
  await first.call('saveDraft', { to: { type: 'channel', channel_id: verona, topic: 'drafted' }, content: `${label} channel draft` });
  expect(s.outbox.counts().pending).toBe(3);
  await first.svc.close();
  return { secrets, id: account.id, topic, verona, fontSize };
}

/** The damaged account opened again by a new service, checked, reconnected and signed out. */
async function reopenedAndLanded(dir: string, who: string, label: string, q: Awaited<ReturnType<typeof queuedThenClosed>>, found: 'at open' | 'in the background' = 'at open') {
  const log = recordingLogger();
  const second = service(dir, q.secrets, log.logger);
  await second.svc.restore();
  if (found === 'in the background') {
    // A clean end: the account opens at once, unchecked; the deferred check finds the damage and
    // the recovery of damage met while open runs.
    const unchecked = second.svc.activeSession!;
    expect(unchecked.recovered).toBeUndefined();
    expect(((await second.call('accounts')) as { damage_notice?: unknown }).damage_notice).toBeUndefined();
    expect(await unchecked.integrity.run()).toMatch(/\S/);
    expect(log.errors.map((e) => e.message)).toContain('the background integrity check found the account database damaged');
    await until(() => second.svc.activeSession !== undefined && second.svc.activeSession !== unchecked, 10_000, 'opened again after the recovery');
  }
  const s = second.svc.activeSession;
  expect(s, 'the account opened again').toBeDefined();
  // The person is told, in words, what happened and what was kept.
  const state = (await second.call('accounts')) as { active: string; damage_notice: { text: string; queued_kept: number; drafts_kept: number; kept_file: string } };
  expect(state.active).toBe(q.id);
  expect(state.damage_notice.text).toMatch(/^This device's copy of the account was damaged\. 3 queued changes and 2 drafts were kept; messages are being fetched again\./);
  expect(state.damage_notice).toMatchObject({ queued_kept: 3, drafts_kept: 2 });
  // The damaged file is kept aside, not deleted; the error is logged.
  expect(readdirSync(dir).filter((f) => f.includes('.sqlite.damaged-'))).toContain(path.basename(state.damage_notice.kept_file));
  expect(log.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/database was damaged/));
  const drafts = ((await second.call('drafts')) as Array<{ content: string }>).map((d) => d.content).sort();
  expect(drafts).toEqual([`${label} channel draft`, `${label} note to self`]);
  expect(s!.outbox.counts().pending).toBe(3);

  // Back online: the cache is fetched again and the queue lands once, in order.
  await proxy.resume();
  await until(() => s!.status.state === 'live' && s!.outbox.counts().pending === 0, 20_000, 'the queue landed');
  const r = await t.as(who).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: q.verona }, { operator: 'topic', operand: q.topic }] });
  expect((r.json.messages as Array<{ content: string }>).map((m) => m.content)).toEqual([`${label} first`, `${label} second`]);
  const reg = await t.as(who).post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
  if (typeof reg.json.queue_id === 'string') await t.as(who).delete('/events', { queue_id: reg.json.queue_id });
  expect((reg.json.user_settings as Record<string, unknown>)['web_font_size_px']).toBe(q.fontSize);
  expect(s!.queries.channels().length).toBeGreaterThan(0);

  // The notice can be dismissed; sign-out works and takes the damaged copy with the local copy.
  expect((await second.invoke('dismissDamageNotice')).ok).toBe(true);
  expect(((await second.call('accounts')) as { damage_notice?: unknown }).damage_notice).toBeUndefined();
  expect(await second.invoke('signOut', { id: q.id, queued: 'discard' })).toEqual({ ok: true, value: { ok: true, kept: false } });
  expect(readdirSync(dir).filter((f) => f.includes('.sqlite'))).toEqual([]);
  await second.svc.close();
}

describe('a damaged account database', () => {
  it('truncated: the readable queue and drafts are kept, the rest fetched again', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'hamlet', 'truncated');
    const file = dbFile(dir.dir);
    const { pageSize, pages, total } = pagesOf(file);
    // Cut the file after the last page of the schema and the durable tables, half-way into the
    // next page: what lies beyond (message cache pages) is gone, and the last page is torn.
    const kept = Math.max(...['sqlite_schema', 'sqlite_sequence', 'account', 'engine_settings', 'outbox', 'outbox_temp_ids', 'drafts', 'message_raw'].flatMap((n) => pages.get(n) ?? []));
    expect(pages.get('messages')!.some((p) => p > kept + 1), 'message pages lie beyond the cut').toBe(true);
    truncateSync(file, kept * pageSize + pageSize / 2);
    expect(statSync(file).size).toBeLessThan(total * pageSize);
    await reopenedAndLanded(dir.dir, 'hamlet', 'truncated', q);
    dir.cleanup();
  });

  it('broken header: the pages behind it are read through a copy with a standard header', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'othello', 'header');
    const file = dbFile(dir.dir);
    overwrite(file, 0, Buffer.alloc(100, 0x5a));
    await reopenedAndLanded(dir.dir, 'othello', 'header', q);
    dir.cleanup();
  });

  it('a damaged page of the message cache: found at open, the cache rebuilt from the server', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'cordelia', 'cache page');
    const file = dbFile(dir.dir);
    const { pageSize, pages } = pagesOf(file);
    const messagePages = pages.get('messages')!;
    expect(messagePages.length).toBeGreaterThan(1);
    // A leaf of the messages b-tree (not its root, the first): its header and cells become noise.
    const victim = messagePages[messagePages.length - 1]!;
    overwrite(file, (victim - 1) * pageSize, Buffer.alloc(pageSize / 2, 0xa5));
    await reopenedAndLanded(dir.dir, 'cordelia', 'cache page', q);
    dir.cleanup();
  });
});

/** A leaf of the messages b-tree (not its root, the first) becomes noise; with `sameStamp` its size and modification time stay as they were (damage a stat cannot see). */
function damagedCachePage(file: string, sameStamp: boolean): void {
  const before = statSync(file);
  const { pageSize, pages } = pagesOf(file);
  const messagePages = pages.get('messages')!;
  expect(messagePages.length).toBeGreaterThan(1);
  overwrite(file, (messagePages[messagePages.length - 1]! - 1) * pageSize, Buffer.alloc(pageSize / 2, 0xa5));
  if (sameStamp) utimesSync(file, before.atime, new Date(Math.round(before.mtimeMs)));
}

describe('the integrity check after a clean or an unclean end', () => {
  it('after an unclean end (no clean-close mark) a damaged page is caught before the account is used', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'desdemona', 'unclean');
    const file = dbFile(dir.dir);
    // A crash, a kill or a power cut leaves no mark; the damage leaves the file's stamp as it was.
    rmSync(`${file}.clean`);
    damagedCachePage(file, true);
    await reopenedAndLanded(dir.dir, 'desdemona', 'unclean', q);
    dir.cleanup();
  });

  it('after a clean end the account opens unchecked; the background check finds the damage and recovers it', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'othello', 'clean');
    const file = dbFile(dir.dir);
    expect(existsSync(`${file}.clean`), 'a clean close leaves its mark').toBe(true);
    damagedCachePage(file, true);
    await reopenedAndLanded(dir.dir, 'othello', 'clean', q, 'in the background');
    dir.cleanup();
  });
});

describe('damage found while the account is open', () => {
  it('the event stream meets a damaged message page: the cache is rebuilt instead of backing off forever', async () => {
    const dir = tempDir();
    const secrets = new MemorySecretStore();
    const log = recordingLogger();
    const { svc, call } = service(dir.dir, secrets, log.logger);
    const account = (await call('signIn', { realm_url: proxy.url, email: 'iago@example.com', credentials: { password: 'sandbox' } })) as { id: string };
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
    const s = svc.activeSession!;
    const verona = s.queries.channels().find((c) => c.name === 'Verona')!.channel_id;
    await proxy.pause();
    await until(() => s.status.state !== 'live', 10_000, 'offline');
    const topic = TOPIC('live');
    await call('sendMessage', { to: { type: 'channel', channel_id: verona, topic }, content: 'live first' });
    await call('sendMessage', { to: { type: 'channel', channel_id: verona, topic }, content: 'live second' });
    await call('saveDraft', { to: { type: 'direct', user_ids: [s.selfUserId!] }, content: 'live draft' });
    // The disk goes bad under the running app: the newest leaf of the messages b-tree (where the
    // echoes of the sends and the messages coming back are written) becomes noise.
    const file = dbFile(dir.dir);
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const db = new Database(file, { readonly: true });
    const leaf = db.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1").pluck().get()!;
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    overwrite(file, (leaf - 1) * pageSize, Buffer.alloc(pageSize / 2, 0xa5));
    s.db.pragma('shrink_memory');
    await proxy.resume();
    // The session meets the damage, the service rebuilds the database and opens the account again.
    await until(() => svc.activeSession !== undefined && svc.activeSession !== s, 20_000, 'the database rebuilt');
    const rebuilt = svc.activeSession!;
    const state = (await call('accounts')) as { damage_notice: { text: string; drafts_kept: number } | null };
    expect(state.damage_notice?.text).toMatch(/^This device's copy of the account was damaged\. .* kept; messages are being fetched again\./);
    expect(state.damage_notice?.drafts_kept).toBe(1);
    expect(log.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/database was damaged/));
    await until(() => rebuilt.status.state === 'live' && rebuilt.outbox.counts().pending === 0, 20_000, 'the queue landed');
    const r = await t.as('iago').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: verona }, { operator: 'topic', operand: topic }] });
    expect((r.json.messages as Array<{ content: string }>).map((m) => m.content)).toEqual(['live first', 'live second']);
    expect(((await call('drafts')) as Array<{ content: string }>).map((d) => d.content)).toEqual(['live draft']);
    expect(await call('signOut', { id: account.id, queued: 'discard' })).toEqual({ ok: true, kept: false });
    expect(readdirSync(dir.dir).filter((f) => f.includes('.sqlite'))).toEqual([]);
    await svc.close();
    dir.cleanup();
  });
});

describe('damage met by a narrow read', () => {
  it('the call says the copy is being rebuilt, and the account comes back with its queue and drafts', async () => {
    const dir = tempDir();
    const log = recordingLogger();
    const { svc, invoke, call } = service(dir.dir, new MemorySecretStore(), log.logger);
    const account = (await call('signIn', { realm_url: proxy.url, email: 'shiva@example.com', credentials: { password: 'sandbox' } })) as { id: string };
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
    const s = svc.activeSession!;
    const verona = s.queries.channels().find((c) => c.name === 'Verona')!.channel_id;
    await proxy.pause();
    await until(() => s.status.state !== 'live', 10_000, 'offline');
    const topic = TOPIC('narrow');
    await call('sendMessage', { to: { type: 'channel', channel_id: verona, topic }, content: 'narrow send' });
    await call('saveDraft', { to: { type: 'direct', user_ids: [s.selfUserId!] }, content: 'narrow draft' });
    // Every leaf of the messages b-tree becomes noise under the running app.
    const file = dbFile(dir.dir);
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const db = new Database(file, { readonly: true });
    const leaves = db.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf'").pluck().all();
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    for (const leaf of leaves) overwrite(file, (leaf - 1) * pageSize, Buffer.alloc(pageSize / 2, 0xa5));
    s.db.pragma('shrink_memory');
    const read = await invoke('openNarrow', { narrow: [{ operator: 'channel', operand: verona }], anchor: 'newest', before: 50, after: 0 });
    expect(read.ok === false && read.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/damaged; it is being rebuilt/) });
    await until(() => svc.activeSession !== undefined && svc.activeSession !== s, 20_000, 'the database rebuilt');
    const state = (await call('accounts')) as { damage_notice?: { text: string } };
    expect(state.damage_notice?.text).toMatch(/^This device's copy of the account was damaged\. 1 queued change and 1 draft were kept; messages are being fetched again\./);
    await proxy.resume();
    const rebuilt = svc.activeSession!;
    await until(() => rebuilt.status.state === 'live' && rebuilt.outbox.counts().pending === 0, 20_000, 'the queue landed');
    const r = await t.as('shiva').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: verona }, { operator: 'topic', operand: topic }] });
    expect((r.json.messages as Array<{ content: string }>).map((m) => m.content)).toEqual(['narrow send']);
    const again = await invoke('openNarrow', { narrow: [{ operator: 'channel', operand: verona }], anchor: 'newest', before: 50, after: 0 });
    expect(again.ok).toBe(true);
    expect(await call('signOut', { id: account.id })).toEqual({ ok: true, kept: false });
    expect(readdirSync(dir.dir).filter((f) => f.includes('.sqlite'))).toEqual([]);
    await svc.close();
    dir.cleanup();
  });
});

describe('sign-out of the open account whose drafts page is damaged', () => {
  it('asking rebuilds the copy; discarding works at once', async () => {
    const dir = tempDir();
    const log = recordingLogger();
    const { svc, invoke, call } = service(dir.dir, new MemorySecretStore(), log.logger);
    const account = (await call('signIn', { realm_url: proxy.url, email: 'hamlet@example.com', credentials: { password: 'sandbox' } })) as { id: string };
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');
    const s = svc.activeSession!;
    await call('saveDraft', { to: { type: 'direct', user_ids: [s.selfUserId!] }, content: 'a draft on a page about to go bad' });
    const file = dbFile(dir.dir);
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const { pageSize, pages } = pagesOf(file);
    // The drafts table and its index (a count may be answered from the index alone).
    for (const name of ['drafts', 'sqlite_autoindex_drafts_1']) for (const p of pages.get(name)!) overwrite(file, (p - 1) * pageSize, Buffer.alloc(pageSize, 0xa5));
    s.db.pragma('shrink_memory');
    // Asking what sign-out would leave meets the damage: the copy is rebuilt, and asked again.
    const asked = await invoke('signOutCheck', { id: account.id });
    expect(asked.ok === false && asked.error.code).toBe('UNAVAILABLE');
    await until(() => svc.activeSession !== undefined && svc.activeSession !== s, 20_000, 'the database rebuilt');
    expect((await invoke('signOutCheck', { id: account.id })).ok).toBe(true);
    // Discarding needs no answer from the file at all.
    expect(await call('signOut', { id: account.id, queued: 'discard' })).toEqual({ ok: true, kept: false });
    expect(readdirSync(dir.dir).filter((f) => f.includes('.sqlite'))).toEqual([]);
    await svc.close();
    dir.cleanup();
  });
});

describe('sign-out of an account whose file cannot be read at all', () => {
  it('counts nothing it cannot read, signs out, and removes the file', async () => {
    const dir = tempDir();
    const q = await queuedThenClosed(dir.dir, 'desdemona', 'unreadable');
    const file = dbFile(dir.dir);
    // Every byte noise: nothing in it can be read.
    overwrite(file, 0, Buffer.alloc(statSync(file).size, 0x5a));
    const log = recordingLogger();
    const { svc, invoke } = service(dir.dir, q.secrets, log.logger);
    expect(await invoke('signOutCheck', { id: q.id })).toEqual({ ok: true, value: { pending: 0, failed: 0, conflict: 0, drafts: 0 } });
    expect(await invoke('signOut', { id: q.id })).toEqual({ ok: true, value: { ok: true, kept: false } });
    expect(readdirSync(dir.dir).filter((f) => f.includes('.sqlite'))).toEqual([]);
    expect(log.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/database was damaged/));
    await svc.close();
    dir.cleanup();
  });
});
