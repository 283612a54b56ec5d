/**
 * Desktop notifications decided by the engine (sync/engine/notifications.ts) against the reference
 * server: a direct message and a mention notify, a plain channel message does not (Zulip's default
 * `enable_stream_desktop_notifications` is off), a followed topic does, a muted topic's message does
 * not while a personal mention there still does; one's own messages never. Messages that arrive
 * together, as after the laptop was offline with its queue kept, give one summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationBatch } from '../../../sync/engine/notifications.js';
import { notificationsToShow } from '../../../renderer/src/notifications/notify-model.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { openSession, tempDir, until } from './session-helpers.js';

let t: TestServer;
const dirs: Array<() => void> = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  for (const d of dirs) d();
});

function dir(): string {
  const d = tempDir();
  dirs.push(d.cleanup);
  return d.dir;
}

const send = async (who: string, params: Record<string, unknown>) => {
  const r = await t.as(who).post('/messages', params as Record<string, string>);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.id as number;
};

describe('desktop notifications', () => {
  it('DMs, mentions and followed topics notify; plain and muted channel messages and one’s own do not', async () => {
    const verona = channelId(t, 'Verona');
    await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'followed here', visibility_policy: 3 });
    await t.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'muted here', visibility_policy: 1 });
    const s = openSession(t, dir());
    const batches: NotificationBatch[] = [];
    s.onNotifications((b) => batches.push(b));
    s.start();
    await until(() => s.status.state === 'live', 10_000, 'live');
    const got = () => batches.flatMap((b) => b.items);

    const dm = await send('othello', { type: 'private', to: JSON.stringify([t.userId('hamlet')]), content: 'Are you there, my lord?' });
    const plain = await send('iago', { type: 'stream', to: 'Verona', topic: 'plain', content: 'Nothing for anyone.' });
    const followed = await send('iago', { type: 'stream', to: 'Verona', topic: 'followed here', content: 'News in a followed topic.' });
    const muted = await send('iago', { type: 'stream', to: 'Verona', topic: 'muted here', content: 'Chatter in a muted topic.' });
    const mention = await send('iago', { type: 'stream', to: 'Verona', topic: 'muted here', content: '@**King Hamlet** a word, please.' });
    await send('hamlet', { type: 'stream', to: 'Verona', topic: 'plain', content: 'My own words.' });
    await until(() => got().some((i) => i.message_id === mention), 10_000, 'the mention');
    await until(() => s.queries.channels().length > 0, 10_000, 'channels');

    const byId = new Map(got().map((i) => [i.message_id, i]));
    expect(byId.get(dm)).toMatchObject({ reason: 'dm', title: 'Othello, the Moor of Venice', body: 'Are you there, my lord?', target: { kind: 'dm', user_ids: [t.userId('othello')] } });
    expect(byId.get(followed)).toMatchObject({ reason: 'followed', title: '#Verona > followed here', body: 'Iago: News in a followed topic.' });
    expect(byId.get(mention)).toMatchObject({ reason: 'mention', target: { kind: 'topic', channel_id: verona, channel_name: 'Verona', topic: 'muted here' } });
    expect(byId.has(plain)).toBe(false);
    expect(byId.has(muted)).toBe(false);
    expect(got().map((i) => i.message_id).sort()).toEqual([dm, followed, mention].sort());

    // The page shows them only while the app is in the background and not in Do Not Disturb.
    const event = { type: 'notifications' as const, items: got(), summary: null };
    expect(notificationsToShow(event, { focused: false, doNotDisturb: false, permission: 'granted' }).map((n) => n.tag)).toEqual(got().map((i) => `message-${i.message_id}`));
    expect(notificationsToShow(event, { focused: true, doNotDisturb: false, permission: 'granted' })).toEqual([]);
    expect(notificationsToShow(event, { focused: false, doNotDisturb: true, permission: 'granted' })).toEqual([]);
    expect(notificationsToShow(event, { focused: false, doNotDisturb: false, permission: 'default' })).toEqual([]);
    await s.close();
  });

  it('messages that arrive together (back from offline, the queue kept) give one summary', async () => {
    const d = dir();
    const a = openSession(t, d);
    a.start();
    await until(() => a.status.state === 'live', 10_000, 'live');
    await a.close();
    for (const who of ['othello', 'iago', 'cordelia', 'othello', 'iago']) await send(who, { type: 'private', to: JSON.stringify([t.userId('hamlet')]), content: `While you were away (${who})` });

    const b = openSession(t, d);
    const batches: NotificationBatch[] = [];
    b.onNotifications((n) => batches.push(n));
    b.start();
    await until(() => batches.length > 0, 10_000, 'the catch-up batch');
    expect(batches[0]!.items).toEqual([]);
    expect(batches[0]!.summary).toEqual({ count: 5, senders: ['Othello, the Moor of Venice', 'Iago', "Cordelia, Lear's daughter"] });
    const shown = notificationsToShow({ type: 'notifications', items: [], summary: batches[0]!.summary }, { focused: false, doNotDisturb: false, permission: 'granted' });
    expect(shown).toEqual([{ title: '5 new messages', body: 'From Othello, the Moor of Venice, Iago and 1 more', tag: 'summary', silent: false, target: { kind: 'inbox' } }]);
    await b.close();
  });
});
