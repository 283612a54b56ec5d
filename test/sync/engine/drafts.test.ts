/**
 * Drafts are the engine's, in a durable table: saved per conversation, restored after the session
 * (the app) restarts, deleted by the send that queues the message in the same transaction, and
 * announced as the `drafts` area.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDb } from '../../../sync/db/open.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import { draftKey, keepAsDraft, listDrafts, MAX_DRAFTS, saveDraft } from '../../../sync/engine/drafts.js';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { commands, draftSchema } from '../../../sync/protocol/commands.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('drafts (store)', () => {
  it('one per conversation: topics fold case, DM groups sort and drop the signed-in user; blank text deletes', () => {
    const db = openLocalDb(':memory:');
    const c = new ChangeCollector();
    expect(draftKey({ type: 'channel', channel_id: 3, topic: 'Lunch' })).toBe(draftKey({ type: 'channel', channel_id: 3, topic: 'lunch' }));
    expect(draftKey({ type: 'direct', user_ids: [9, 4, 7] }, 7)).toBe('dm:4,9');
    expect(draftKey({ type: 'direct', user_ids: [7] }, 7)).toBe('dm:7');
    saveDraft(db, { type: 'channel', channel_id: 3, topic: 'Lunch' }, 'half', 1, c);
    saveDraft(db, { type: 'channel', channel_id: 3, topic: 'lunch' }, 'half typed', 2, c);
    saveDraft(db, { type: 'direct', user_ids: [4] }, 'hi', 3, c);
    expect(c.areas.has('drafts')).toBe(true);
    expect(listDrafts(db).map((d) => [d.key, d.content])).toEqual([
      ['dm:4', 'hi'],
      ['channel:3:lunch', 'half typed'],
    ]);
    saveDraft(db, { type: 'direct', user_ids: [4] }, '   \n', 4, c);
    expect(listDrafts(db).map((d) => d.key)).toEqual(['channel:3:lunch']);
    // Kept text joins what the composer holds, never replaces it.
    keepAsDraft(db, { type: 'channel', channel_id: 3, topic: 'lunch' }, 'my lost edit', 5, c);
    expect(listDrafts(db)[0]?.content).toBe('half typed\n\nmy lost edit');
    keepAsDraft(db, { type: 'channel', channel_id: 3, topic: 'lunch' }, 'my lost edit', 6, c);
    expect(listDrafts(db)[0]?.content).toBe('half typed\n\nmy lost edit');
  });

  it('keeps a new DM whose people are not picked yet (one, key dm:), through the contract too', () => {
    const db = openLocalDb(':memory:');
    const c = new ChangeCollector();
    const nobody = { type: 'direct' as const, user_ids: [] };
    expect(commands.saveDraft.request.safeParse({ to: nobody, content: 'to someone' }).success).toBe(true);
    expect(saveDraft(db, nobody, 'to someone', 1, c)).toBe('dm:');
    saveDraft(db, nobody, 'to someone, later', 2, c);
    const [d] = listDrafts(db);
    expect(listDrafts(db)).toHaveLength(1);
    expect(d).toMatchObject({ key: 'dm:', to: nobody, content: 'to someone, later' });
    expect(draftSchema.safeParse(d).success).toBe(true);
    // Typing notices still need people.
    expect(commands.setTyping.request.safeParse({ to: nobody, op: 'start' }).success).toBe(false);
  });

  it('is bounded: the oldest drafts go past the limit', () => {
    const db = openLocalDb(':memory:');
    const c = new ChangeCollector();
    for (let i = 0; i < MAX_DRAFTS + 5; i++) saveDraft(db, { type: 'channel', channel_id: 1, topic: `t${i}` }, `d${i}`, i, c);
    const all = listDrafts(db);
    expect(all).toHaveLength(MAX_DRAFTS);
    expect(all.at(-1)?.content).toBe('d5');
  });
});

describe('drafts (session)', () => {
  it('survive a restart; a send deletes its conversation draft in the same transaction and announces it', async () => {
    const dir = tempDir();
    const verona = channelId(t, 'Verona');
    let s = openSession({ url: t.url, server: t.server }, dir.dir, 'hamlet');
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    s.drafts.save({ type: 'channel', channel_id: verona, topic: 'drafts survive' }, 'typed before the crash');
    s.drafts.save({ type: 'direct', user_ids: [s.selfUserId!] }, 'note to self');
    await s.close();

    s = openSession({ url: t.url, server: t.server }, dir.dir, 'hamlet');
    expect(s.drafts.list().map((d) => d.content).sort()).toEqual(['note to self', 'typed before the crash']);
    const areas: string[][] = [];
    const off = s.onChanges((c) => areas.push([...c.areas]));
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const intents = outboxIntents(s.db, s.outbox);
    intents.sendMessage({ to: { type: 'channel', channel_id: verona, topic: 'Drafts Survive' }, content: 'typed before the crash, sent' });
    expect(s.drafts.list().map((d) => d.content)).toEqual(['note to self']);
    expect(areas.some((a) => a.includes('drafts') && a.includes('outbox'))).toBe(true);
    off();
    await s.close();
    dir.cleanup();
  });
});
