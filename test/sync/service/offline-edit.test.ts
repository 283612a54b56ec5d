/**
 * Edit any of one's own messages offline: the engine keeps the raw Markdown of the user's own
 * editable messages (fetched in the background with apply_markdown=false, kept current by
 * update_message events, durable), so `messageRawContent` answers offline; an editor opened on a
 * message with a pending edit starts from the pending text; where the text is truly unknown the
 * refusal says why in words.
 */
import { describe, expect, it } from 'vitest';
import { post } from '../../server/edit-helpers.js';
import { until } from '../engine/session-helpers.js';
import { proxy, serviceSuite, signedIn, t } from './service-support.js';

serviceSuite();

describe('offline edits of old messages', () => {
  it("opens from the device's copy offline, the pending text after an edit, and explains the unknown", async () => {
    // Sent before this device signed in (the raw text only on the server), and by someone else.
    const mine = post(t, 'hamlet', 'Verona', 'offline edit', 'sent an hour ago, **with Markdown**');
    const theirs = post(t, 'othello', 'Verona', 'offline edit', 'not yours');
    const { svc, invoke, call } = await signedIn('hamlet');
    const s = svc.activeSession!;
    await until(() => s.db.prepare('SELECT count(*) FROM message_raw WHERE message_id = ?').pluck().get(mine) === 1, 10_000, 'raw cached in the background');

    // Edited on the phone meanwhile: the event keeps the copy current.
    expect((await t.as('hamlet').patch(`/messages/${mine}`, { content: 'edited on the phone, **with Markdown**' })).status).toBe(200);
    await until(() => s.db.prepare('SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(mine) === 'edited on the phone, **with Markdown**', 10_000, 'event applied');

    await proxy.pause();
    await until(() => s.status.state !== 'live', 10_000, 'offline');
    expect(await call('messageRawContent', { message_id: mine })).toEqual({ raw_content: 'edited on the phone, **with Markdown**', source: 'cache' });
    const refused = await invoke('messageRawContent', { message_id: theirs });
    expect(refused.ok === false && refused.error.code).toBe('OFFLINE');
    expect(refused.ok === false && refused.error.message).toMatch(/not yours.*needs a connection/);

    // Edit offline with that text's hash; reopening starts from the pending text.
    await call('updateMessageContent', { message_id: mine, content: 'first offline edit', base_raw_content: 'edited on the phone, **with Markdown**' });
    expect(await call('messageRawContent', { message_id: mine })).toEqual({ raw_content: 'first offline edit', source: 'pending' });
    // Its attempt found no server (refused: it did not land) and waits to retry.
    await until(() => s.outbox.rows().some((r) => r.kind === 'update_message_content' && r.state === 'retry_wait'), 10_000, 'waiting');
    await call('updateMessageContent', { message_id: mine, content: 'second offline edit', base_raw_content: 'first offline edit' });
    // The two coalesce against the first base.
    const rows = s.outbox.rows().filter((r) => r.kind === 'update_message_content');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.base).toMatchObject({ raw_content: 'edited on the phone, **with Markdown**' });

    await proxy.resume();
    await call('nudge', { reason: 'network' });
    await until(() => s.outbox.counts().pending === 0, 15_000, 'landed');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    expect(((await t.as('hamlet').get(`/messages/${mine}`, { apply_markdown: false })).json as { raw_content: string }).raw_content).toBe('second offline edit');
    await svc.close();
  });

  it('an owner keeps the text of own messages older than the edit window, and edits one offline; a member is told the window', async () => {
    const sixHours = 6 * 3600; // the realm's content-edit limit is 10 minutes
    const ownersOld = post(t, 'desdemona', 'Verona', 'old owner edit', 'six hours old, **by the owner**', sixHours);
    const membersOld = post(t, 'hamlet', 'Verona', 'old member edit', 'six hours old, by a member', sixHours);
    const membersNew = post(t, 'hamlet', 'Verona', 'old member edit', 'just now, by a member');
    const owner = await signedIn('desdemona');
    const s = owner.svc.activeSession!;
    await until(() => s.db.prepare('SELECT count(*) FROM message_raw WHERE message_id = ?').pluck().get(ownersOld) === 1, 10_000, 'old raw cached for the owner');

    await proxy.pause();
    await until(() => s.status.state !== 'live', 10_000, 'offline');
    expect(await owner.call('messageRawContent', { message_id: ownersOld })).toEqual({ raw_content: 'six hours old, **by the owner**', source: 'cache' });
    await owner.call('updateMessageContent', { message_id: ownersOld, content: 'edited offline by the owner', base_raw_content: 'six hours old, **by the owner**' });
    // No deadline: the limit does not bind an owner, so the edit waits for the server however long.
    expect(s.outbox.rows().find((r) => r.kind === 'update_message_content')?.deadlineAt).toBeNull();
    await proxy.resume();
    await owner.call('nudge', { reason: 'network' });
    await until(() => s.outbox.counts().pending === 0, 15_000, 'landed');
    expect(s.outbox.counts()).toEqual({ pending: 0, failed: 0, conflict: 0 });
    expect(((await t.as('desdemona').get(`/messages/${ownersOld}`, { apply_markdown: false })).json as { raw_content: string }).raw_content).toBe('edited offline by the owner');
    await owner.svc.close();

    const member = await signedIn('hamlet');
    const m = member.svc.activeSession!;
    await until(() => m.db.prepare('SELECT count(*) FROM message_raw WHERE message_id = ?').pluck().get(membersNew) === 1, 10_000, 'recent raw cached for the member');
    expect(m.db.prepare('SELECT count(*) FROM message_raw WHERE message_id = ?').pluck().get(membersOld)).toBe(0);
    await proxy.pause();
    await until(() => m.status.state !== 'live', 10_000, 'offline');
    const refused = await member.invoke('messageRawContent', { message_id: membersOld });
    expect(refused.ok === false && refused.error.message).toBe('Your organization allows editing a message only within 10 minutes of sending it, and this one is older.');
    await member.svc.close();
  });

  it('a message sent from this device keeps its text for offline edits once it lands', async () => {
    const { svc, call } = await signedIn('hamlet');
    const s = svc.activeSession!;
    const sent = (await call('sendMessage', { to: { type: 'channel', channel_id: (s.queries.channels().find((c) => c.name === 'Verona'))!.channel_id, topic: 'sent here' }, content: 'typed here  \n' })) as { outbox_id: number };
    await until(() => s.outbox.store.get(sent.outbox_id)?.state === 'done', 10_000, 'landed');
    const id = Number(JSON.stringify(s.outbox.store.get(sent.outbox_id)?.history).match(/"created_id":(\d+)/)?.[1]);
    expect(s.db.prepare('SELECT raw FROM message_raw WHERE message_id = ?').pluck().get(id)).toBe('typed here');
    await svc.close();
  });
});
