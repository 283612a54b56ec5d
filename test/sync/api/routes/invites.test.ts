import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import { sendInvites } from '../../../../sync/api/routes/invites.js';
import { fakeServer } from '../fake-transport.js';

describe('invite routes', () => {
  it('sendInvites POSTs emails raw, ids as JSON arrays, role and minutes as JSON ints, flags as JSON bools', async () => {
    const f = fakeServer();
    const res = await sendInvites(f.conn, {
      invitee_emails: 'example@zulip.com, logan@zulip.com',
      invite_expires_in_minutes: 14400,
      invite_as: 600,
      stream_ids: [1, 10],
      group_ids: [],
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
      welcome_message_custom_text: 'Welcome & "enjoy"!',
    });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/invites');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({
      invitee_emails: 'example@zulip.com, logan@zulip.com',
      invite_expires_in_minutes: '14400',
      invite_as: '600',
      stream_ids: '[1,10]',
      group_ids: '[]',
      include_realm_default_subscriptions: 'true',
      notify_referrer_on_join: 'false',
      welcome_message_custom_text: 'Welcome & "enjoy"!',
    });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('joins a list of emails with commas and always sends stream_ids, even empty', async () => {
    const f = fakeServer();
    await sendInvites(f.conn, { invitee_emails: ['a@example.com', 'b@example.com'], stream_ids: [] });
    expect(f.only().body).toEqual({ invitee_emails: 'a@example.com,b@example.com', stream_ids: '[]' });
  });

  it('invite_expires_in_minutes null (never expires) is sent as JSON null', async () => {
    const f = fakeServer();
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: null });
    expect(f.only().body.invite_expires_in_minutes).toBe('null');
    expect(f.only().rawBody).toContain('invite_expires_in_minutes=null');
  });

  it('welcome_message_custom_text "" (no message) is sent; null (org default) is left out', async () => {
    const f = fakeServer();
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: '' });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: null });
    expect(f.calls[0]?.body).toHaveProperty('welcome_message_custom_text', '');
    expect(f.calls[1]?.body).not.toHaveProperty('welcome_message_custom_text');
  });

  it('welcome_message_custom_text may be exactly 8000 characters (code points, not UTF-16 units)', async () => {
    const f = fakeServer();
    const text = '😀'.repeat(8000); // 16000 UTF-16 units, 8000 characters
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: text });
    expect(f.only().body.welcome_message_custom_text).toBe(text);
  });

  it('welcome_message_custom_text over 8000 characters is refused before sending', async () => {
    const f = fakeServer();
    await expect(
      sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: 'x'.repeat(8001) }),
    ).rejects.toThrow(/8001 characters; at most 8000/);
    expect(f.calls).toHaveLength(0);
  });

  it('from FL 126 the expiry is sent in minutes', async () => {
    const f = fakeServer({ featureLevel: 126 });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: 90 });
    expect(f.only().body).toEqual({ invitee_emails: 'a@example.com', stream_ids: '[]', invite_expires_in_minutes: '90' });
  });

  it('before FL 126 the expiry is sent as invite_expires_in_days, rounded up', async () => {
    const f = fakeServer({ featureLevel: 125 });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: 1441 });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: 14400 });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: 1 });
    await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [], invite_expires_in_minutes: null });
    expect(f.calls.map((c) => c.body.invite_expires_in_days)).toEqual(['2', '10', '1', 'null']);
    expect(f.calls.every((c) => !('invite_expires_in_minutes' in c.body))).toBe(true);
  });

  it('only the five roles can be invited, at the type level', () => {
    const typeOnly = (fn: () => unknown) => fn;
    // @ts-expect-error 500 is not a role
    typeOnly(() => sendInvites(fakeServer().conn, { invitee_emails: 'a@b.c', stream_ids: [], invite_as: 500 }));
    // @ts-expect-error stream_ids is required
    typeOnly(() => sendInvites(fakeServer().conn, { invitee_emails: 'a@b.c' }));
  });

  it('INVITATION_FAILED carries its four fields in err.details', async () => {
    const f = fakeServer();
    f.reply({
      status: 400,
      json: {
        result: 'error',
        msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        code: 'INVITATION_FAILED',
        errors: [['hamlet@zulip.com', 'Already has an account.', false]],
        sent_invitations: true,
        license_limit_reached: false,
        daily_limit_reached: false,
      },
    });
    const err = await sendInvites(f.conn, { invitee_emails: 'hamlet@zulip.com, new@zulip.com', stream_ids: [] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({
      kind: 'api',
      code: 'INVITATION_FAILED',
      httpStatus: 400,
      details: {
        code: 'INVITATION_FAILED',
        errors: [['hamlet@zulip.com', 'Already has an account.', false]],
        sent_invitations: true,
        license_limit_reached: false,
        daily_limit_reached: false,
      },
    });
  });

  it('insufficient permission is a plain BAD_REQUEST api error without details', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' } });
    const err = await sendInvites(f.conn, { invitee_emails: 'a@example.com', stream_ids: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', details: undefined });
  });
});
