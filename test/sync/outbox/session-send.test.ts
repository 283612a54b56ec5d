/**
 * Sending through the session: messages written offline show at once as local echoes in their
 * conversation's live view, in the typed order; when the network returns they are sent in that
 * order, a dropped answer is verified (exactly one message each), and each echo is replaced by
 * its real message (never both shown). Snippets created offline are adopted under their real id.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ECHO_MIN_ID } from '../../../sync/db/queries/messages.js';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { serverTopic, sessionEnv, watch, type SessionEnv } from './session-support.js';

let t: TestServer;
let env: SessionEnv;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  env = await sessionEnv(t);
});
afterEach(() => env.close());

describe('sending messages through the session', () => {
  it('offline sends echo at once in order; back online each lands exactly once and replaces its echo', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'offline sends' },
    ]);
    await proxy.pause();
    const typed = ['first', 'second **bold**', 'third'];
    const echoes = typed.map((content) => intents.sendMessage({ to: { type: 'channel', channel_id: channelId(t, 'Verona'), topic: 'offline sends' }, content }).message_id);
    expect(echoes.every((id) => id > LOCAL_ECHO_MIN_ID)).toBe(true);
    // Shown at once, in the typed order, marked pending.
    await until(() => v.view().messages.length === 3, 5_000, 'echoes shown');
    expect(v.view().messages.map((m) => [m.id, m.content, m.local.status])).toEqual([
      [echoes[0], '<p>first</p>', 'pending'],
      [echoes[1], '<p>second **bold**</p>', 'pending'],
      [echoes[2], '<p>third</p>', 'pending'],
    ]);
    expect(s.outbox.counts().pending).toBe(3);

    // Back online; the first answer is lost after the server applied it.
    proxy.rule({ method: 'POST', path: /^\/api\/v1\/messages$/ }, { kind: 'drop' }, 1);
    await proxy.resume();
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'all sent');
    expect(proxy.counts.drop).toBe(1);
    expect((await serverTopic(t, 'offline sends')).map((m) => m.content)).toEqual(typed);
    // Every echo replaced by its real message: three messages shown, none local.
    await until(() => v.view().messages.every((m) => m.id < LOCAL_ECHO_MIN_ID) && v.view().messages.length === 3, 10_000, 'echoes replaced');
    expect(v.view().messages.map((m) => m.content)).toEqual(['<p>first</p>', '<p>second <strong>bold</strong></p>', '<p>third</p>']);
    expect(v.view().messages.every((m) => m.local.status === 'server')).toBe(true);
    expect(s.db.prepare('SELECT count(*) FROM messages WHERE id > ?').pluck().get(LOCAL_ECHO_MIN_ID)).toBe(0);
    v.close();
  });

  it('a message still queued is edited in place; a discarded one disappears', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    await proxy.pause();
    const to = { type: 'channel' as const, channel_id: channelId(t, 'Verona'), topic: 'edit unsent' };
    const a = intents.sendMessage({ to, content: 'typo heer' });
    const b = intents.sendMessage({ to, content: 'never mind' });
    // Offline, the first attempt fails at once (connection refused) and waits to retry.
    await until(() => s.outbox.store.get(a.outbox_id)?.state === 'retry_wait', 5_000, 'waiting to retry');
    intents.updateMessageContent({ message_id: a.message_id, content: 'typo here', base_raw_content: 'typo heer' });
    s.outbox.discard(b.outbox_id);
    expect(s.db.prepare('SELECT count(*) FROM messages WHERE id = ?').pluck().get(b.message_id)).toBe(0);
    await proxy.resume();
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'sent');
    expect((await serverTopic(t, 'edit unsent')).map((m) => m.content)).toEqual(['typo here']);
  });

  it('a snippet created offline is shown under a negative id, then adopted under its real id', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    await proxy.pause();
    const created = intents.createSavedSnippet({ title: 'offline snippet', content: 'made on a train' });
    expect(created.snippet_id).toBeLessThan(0);
    intents.editSavedSnippet({ snippet_id: created.snippet_id, content: 'made on a train, edited' });
    expect(s.queries.savedSnippets().find((x) => x.id === created.snippet_id)).toMatchObject({ content: 'made on a train, edited' });
    // Another device adds a snippet meanwhile: the event replaces nothing of ours.
    await proxy.resume();
    proxy.rule({ method: 'POST', path: /^\/api\/v1\/saved_snippets$/ }, { kind: 'error500' }, 3);
    expect((await t.as('hamlet').post('/saved_snippets', { title: 'from the phone', content: 'x' })).status).toBe(200);
    await until(() => s.queries.savedSnippets().some((x) => x.title === 'from the phone'), 10_000, 'other snippet');
    expect(s.queries.savedSnippets().some((x) => x.id === created.snippet_id)).toBe(true);
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 15_000, 'created');
    const mine = s.queries.savedSnippets().filter((x) => x.title === 'offline snippet');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.id).toBeGreaterThan(0);
    expect(mine[0]!.content).toBe('made on a train, edited');
    // Later edits by the old local id reach the adopted snippet.
    intents.editSavedSnippet({ snippet_id: created.snippet_id, title: 'renamed' });
    await until(() => s.outbox.counts().pending === 0, 15_000, 'renamed');
    const server = (await t.as('hamlet').get('/saved_snippets')).json.saved_snippets as Array<{ id: number; title: string }>;
    expect(server.filter((x) => x.id === mine[0]!.id).map((x) => x.title)).toEqual(['renamed']);
  });

  it('texts that read exactly like temporary ids are the user\'s text, never rewritten (ids live in declared fields only)', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    // The first object created offline in this account is tmp-1; let it land.
    const first = intents.createSavedSnippet({ title: 'first', content: 'lands as a server id' });
    expect(s.outbox.store.all().at(-1)?.args).toMatchObject({ tmp_id: 'tmp-1' });
    await until(() => s.outbox.counts().pending === 0, 15_000, 'first snippet landed');
    expect(s.outbox.store.resolvedTempId('tmp-1')).toMatch(/^\d+$/);
    // Offline: texts equal to landed and pending temporary ids, and an edit by the old local id.
    await proxy.pause();
    const second = intents.createSavedSnippet({ title: 'tmp-1', content: 'tmp-2' });
    expect(s.outbox.store.all().at(-1)?.args).toMatchObject({ tmp_id: 'tmp-2', title: 'tmp-1', content: 'tmp-2' });
    intents.editSavedSnippet({ snippet_id: second.snippet_id, content: 'tmp-1' });
    intents.editSavedSnippet({ snippet_id: first.snippet_id, title: 'tmp-2', content: 'tmp-1' });
    const verona = channelId(t, 'Verona');
    intents.sendMessage({ to: { type: 'channel', channel_id: verona, topic: 'tmp-1' }, content: 'tmp-1' });
    intents.sendMessage({ to: { type: 'channel', channel_id: verona, topic: 'tmp-1' }, content: 'tmp-2' });
    expect(s.outbox.store.all().filter((r) => r.kind === 'send_message').map((r) => (r.args as { content: string }).content)).toEqual(['tmp-1', 'tmp-2']);
    await proxy.resume();
    s.outbox.retryNow();
    await until(() => s.outbox.counts().pending === 0, 15_000, 'all landed');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    const server = (await t.as('hamlet').get('/saved_snippets')).json.saved_snippets as Array<{ id: number; title: string; content: string }>;
    const firstId = Number(s.outbox.store.resolvedTempId('tmp-1'));
    expect(server.find((x) => x.id === firstId)).toMatchObject({ title: 'tmp-2', content: 'tmp-1' });
    expect(server.filter((x) => x.title === 'tmp-1').map((x) => x.content)).toEqual(['tmp-1']);
    expect((await serverTopic(t, 'tmp-1')).map((m) => m.content)).toEqual(['tmp-1', 'tmp-2']);
  });

  it('offline: a star, a reaction, a channel marked read and a scheduled message show at once, then land', async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const verona = channelId(t, 'Verona');
    const ids: number[] = [];
    for (const text of ['star me', 'react to me', 'read me']) ids.push((await t.as('othello').post('/messages', { type: 'stream', to: verona, topic: 'offline marks', content: text })).json.id as number);
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'offline marks' },
    ]);
    await until(() => v.view().messages.length === 3, 10_000, 'messages cached');
    const unreadInVerona = () => s.queries.channels().find((c) => c.channel_id === verona)?.unread_count ?? -1;
    expect(unreadInVerona()).toBeGreaterThanOrEqual(3);
    await proxy.pause();
    const [star, react] = ids as [number, number, number];
    intents.updateMessageFlags({ message_ids: [star], flag: 'starred', op: 'add' });
    intents.addOrRemoveReaction({ message_id: react, op: 'add', emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
    intents.updateMessageFlagsForNarrow({ narrow: [{ operator: 'channel', operand: verona }] });
    const at = Math.floor(s.outbox.now() / 1000) + 7200;
    const sched = intents.createScheduledMessage({ to: { type: 'channel', channel_id: verona, topic: 'later' }, content: 'scheduled offline', scheduled_delivery_timestamp: at });
    expect(sched.scheduled_message_id).toBeLessThan(0);
    await until(() => v.view().messages.find((m) => m.id === star)?.flags.includes('starred') === true, 5_000, 'star shown');
    await until(() => v.view().messages.find((m) => m.id === react)?.reactions.some((r) => r.emoji_name === 'tada') === true, 5_000, 'reaction shown');
    expect(unreadInVerona()).toBe(0);
    expect(s.queries.scheduledMessages().find((m) => m.scheduled_message_id === sched.scheduled_message_id)).toMatchObject({ content: 'scheduled offline' });
    await proxy.resume();
    s.outbox.retryNow();
    await until(() => s.outbox.counts().pending === 0, 15_000, 'all landed');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    const server = async (id: number) => (await t.as('hamlet').get(`/messages/${id}`)).json.message as { flags: string[]; reactions: Array<{ emoji_name: string }> };
    expect((await server(star)).flags).toContain('starred');
    expect((await server(react)).reactions.map((r) => r.emoji_name)).toEqual(['tada']);
    for (const id of ids) expect((await server(id)).flags).toContain('read');
    const onServer = (await t.as('hamlet').get('/scheduled_messages')).json.scheduled_messages as Array<{ scheduled_message_id: number; content: string }>;
    const landed = onServer.filter((m) => m.content === 'scheduled offline');
    expect(landed).toHaveLength(1);
    await until(() => s.queries.scheduledMessages().some((m) => m.scheduled_message_id === landed[0]!.scheduled_message_id), 10_000, 'adopted');
    expect(s.queries.scheduledMessages().filter((m) => m.content === 'scheduled offline')).toHaveLength(1);
    v.close();
  });

  it('a refused reaction is marked failed on its message, though its row is keyed elsewhere', async () => {
    const { s } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const verona = channelId(t, 'Verona');
    const id = (await t.as('othello').post('/messages', { type: 'stream', to: verona, topic: 'refused reaction', content: 'react?' })).json.id as number;
    const v = watch(s, [
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: 'refused reaction' },
    ]);
    await until(() => v.view().messages.length === 1, 10_000, 'cached');
    // A code the server does not know for that name: refused (BAD_REQUEST), a person must act.
    intents.addOrRemoveReaction({ message_id: id, op: 'add', emoji_name: 'tada', emoji_code: 'ffff', reaction_type: 'unicode_emoji' });
    await until(() => v.view().messages[0]?.local.status === 'failed', 10_000, 'failed marker');
    expect(v.view().messages[0]?.local.error).toMatchObject({ kind: 'api' });
    v.close();
  });
});
