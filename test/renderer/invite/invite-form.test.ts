/** The invitation and create-user forms: roles never above one's own, expiry, addresses, the request, INVITATION_FAILED per address. */
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../renderer/src/core/bridge-error.js';
import {
  createUserRequest,
  expiryMinutes,
  inviteOutcome,
  inviteRequest,
  parseEmails,
  roleOptions,
  type InviteFormValues,
} from '../../../renderer/src/invite/invite-form.js';

const form = (over: Partial<InviteFormValues> = {}): InviteFormValues => ({
  emails: 'a@example.com',
  inviteAs: 400,
  channelIds: [3],
  includeDefaults: false,
  groupIds: [],
  expiry: '10d',
  customAmount: '',
  customUnit: 'days',
  notifyReferrer: true,
  welcome: null,
  ...over,
});

describe('who may be invited as what', () => {
  it('owners every role, administrators up to administrator, moderators and members member or guest, guests none', () => {
    expect(roleOptions(100)).toEqual([600, 400, 300, 200, 100]);
    expect(roleOptions(200)).toEqual([600, 400, 300, 200]);
    expect(roleOptions(300)).toEqual([600, 400]);
    expect(roleOptions(400)).toEqual([600, 400]);
    expect(roleOptions(600)).toEqual([]);
    expect(roleOptions(null)).toEqual([]);
  });
});

describe('addresses and expiry', () => {
  it('splits on commas and newlines, trims, drops blanks and repeats', () => {
    expect(parseEmails(' a@example.com,\nb@example.com ,, \nA@example.com\n')).toEqual(['a@example.com', 'b@example.com']);
    expect(parseEmails(' ,\n ')).toEqual([]);
  });

  it('presets, never, and a custom amount in minutes, hours or days', () => {
    expect(expiryMinutes('10d', '', 'days')).toBe(14400);
    expect(expiryMinutes('30m', '', 'days')).toBe(30);
    expect(expiryMinutes('never', '', 'days')).toBeNull();
    expect(expiryMinutes('custom', '2', 'hours')).toBe(120);
    expect(expiryMinutes('custom', '3', 'days')).toBe(4320);
    expect(expiryMinutes('custom', '0', 'days')).toEqual({ error: expect.stringContaining('whole number') });
    expect(expiryMinutes('custom', '1.5', 'days')).toEqual({ error: expect.stringContaining('whole number') });
    expect(expiryMinutes('custom', '', 'days')).toEqual({ error: expect.any(String) });
    expect(expiryMinutes('bogus', '', 'days')).toEqual({ error: expect.any(String) });
  });
});

describe('the sendInvites request', () => {
  it('carries every field; the welcome text only from administrators', () => {
    const v = form({ emails: 'a@example.com\nb@example.com', inviteAs: 600, groupIds: [7], includeDefaults: true, notifyReferrer: false, expiry: 'never', welcome: 'Hi' });
    expect(inviteRequest(v, 200)).toEqual({
      request: {
        emails: ['a@example.com', 'b@example.com'],
        channel_ids: [3],
        invite_as: 600,
        invite_expires_in_minutes: null,
        group_ids: [7],
        include_realm_default_subscriptions: true,
        notify_referrer_on_join: false,
        welcome_message_custom_text: 'Hi',
      },
    });
    const member = inviteRequest(v, 400);
    expect('request' in member && 'welcome_message_custom_text' in member.request).toBe(false);
    // An empty custom text is "no welcome message", not the default.
    const empty = inviteRequest(form({ welcome: '' }), 100);
    expect('request' in empty && empty.request.welcome_message_custom_text).toBe('');
  });

  it('refuses no address, a bad custom expiry, an overlong welcome text', () => {
    expect(inviteRequest(form({ emails: ' , ' }), 400)).toEqual({ error: 'Enter at least one email address.' });
    expect(inviteRequest(form({ expiry: 'custom', customAmount: '-1' }), 400)).toEqual({ error: expect.stringContaining('whole number') });
    expect(inviteRequest(form({ welcome: 'x'.repeat(8001) }), 200)).toEqual({ error: expect.stringContaining('8000') });
    expect('request' in inviteRequest(form({ welcome: 'x'.repeat(8000) }), 200)).toBe(true);
  });
});

describe('what the server answered', () => {
  it('success: every address invited', () => {
    expect(inviteOutcome(['a@example.com', 'b@example.com'], null)).toMatchObject({ ok: true, invited: ['a@example.com', 'b@example.com'], failed: [] });
  });

  it('INVITATION_FAILED with sent_invitations: the refused addresses with reasons, the others invited', () => {
    const err = new BridgeError('SERVER', "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", {
      kind: 'api',
      code: 'INVITATION_FAILED',
      details: { code: 'INVITATION_FAILED', errors: [['hamlet@example.com', 'Already has an account.', false]], sent_invitations: true, daily_limit_reached: false, license_limit_reached: false },
    });
    const o = inviteOutcome(['hamlet@example.com', 'new@example.com'], err);
    expect(o).toMatchObject({ ok: false, failed: [{ email: 'hamlet@example.com', reason: 'Already has an account.', deactivated: false }], invited: ['new@example.com'], limits: [] });
    expect(o.message).toContain('already using Zulip');
  });

  it('nothing sent, limits reached, deactivated accounts', () => {
    const err = new BridgeError('SERVER', 'limit', {
      code: 'INVITATION_FAILED',
      details: { errors: [['gone@example.com', 'Account has been deactivated.', true]], sent_invitations: false, daily_limit_reached: true, license_limit_reached: true },
    });
    const o = inviteOutcome(['gone@example.com', 'x@example.com'], err);
    expect(o.invited).toEqual([]);
    expect(o.failed).toEqual([{ email: 'gone@example.com', reason: 'Account has been deactivated.', deactivated: true }]);
    expect(o.limits).toHaveLength(2);
  });

  it('any other refusal is one sentence in the server’s words; malformed details never throw', () => {
    const denied = inviteOutcome(['a@example.com'], new BridgeError('SERVER', 'Must be an organization administrator', { code: 'BAD_REQUEST' }));
    expect(denied).toMatchObject({ ok: false, message: 'The server refused: Must be an organization administrator', failed: [] });
    const odd = inviteOutcome(['a@example.com'], new BridgeError('SERVER', 'odd', { code: 'INVITATION_FAILED', details: { errors: 'nope' } }));
    expect(odd).toMatchObject({ ok: false, failed: [], invited: [] });
    expect(inviteOutcome(['a@example.com'], new BridgeError('OFFLINE', 'down')).message).toContain('Could not reach the server');
  });
});

describe('create a user', () => {
  it('trims and asks for what is missing', () => {
    expect(createUserRequest({ email: ' new@example.com ', password: 'pw', fullName: ' New One ' })).toEqual({ request: { email: 'new@example.com', password: 'pw', full_name: 'New One' } });
    expect(createUserRequest({ email: 'x', password: 'pw', fullName: 'N' })).toEqual({ error: expect.stringContaining('email') });
    expect(createUserRequest({ email: 'n@example.com', password: 'pw', fullName: ' ' })).toEqual({ error: expect.stringContaining('full name') });
    expect(createUserRequest({ email: 'n@example.com', password: '', fullName: 'N' })).toEqual({ error: expect.stringContaining('password') });
  });
});
