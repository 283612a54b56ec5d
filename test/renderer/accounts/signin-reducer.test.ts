/** The sign-in form's request, error sentences, and the consent decision. */
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../renderer/src/core/bridge-error.js';
import { errorText } from '../../../renderer/src/core/errors.js';
import { normalizeServerUrl, signInOutcome, signInRequest, type SignInForm } from '../../../renderer/src/accounts/signin-reducer.js';
import { signInRequestSchema } from '../../../sync/protocol/accounts.js';

const form: SignInForm = { serverUrl: 'chat.example.com', email: ' hamlet@example.com ', method: 'password', secret: 'sandbox' };

describe('sign-in request', () => {
  it('adds https:// to a bare host and keeps explicit http(s) URLs', () => {
    expect(normalizeServerUrl(' chat.example.com ')).toBe('https://chat.example.com');
    expect(normalizeServerUrl('http://127.0.0.1:9991')).toBe('http://127.0.0.1:9991');
    expect(normalizeServerUrl('')).toBe('');
  });

  it('builds a request the contract accepts, with a password or an API key', () => {
    const r = signInRequest(form, false);
    expect(r).toEqual({ ok: true, request: { realm_url: 'https://chat.example.com', email: 'hamlet@example.com', credentials: { password: 'sandbox' } } });
    if (r.ok) expect(signInRequestSchema.safeParse(r.request).success).toBe(true);
    const k = signInRequest({ ...form, method: 'api_key', secret: ' abc123 ' }, false);
    expect(k.ok && k.request.credentials).toEqual({ api_key: 'abc123' });
  });

  it('sets allow_plain_storage only when the user agreed', () => {
    const no = signInRequest(form, false);
    expect(no.ok && 'allow_plain_storage' in no.request).toBe(false);
    const yes = signInRequest(form, true);
    expect(yes.ok && yes.request.allow_plain_storage).toBe(true);
  });

  it('explains what is missing or wrong before anything is sent', () => {
    expect(signInRequest({ ...form, serverUrl: '  ' }, false)).toMatchObject({ ok: false, error: expect.stringContaining('server URL') });
    expect(signInRequest({ ...form, serverUrl: 'ftp://x.org' }, false)).toMatchObject({ ok: false, error: expect.stringContaining('https://') });
    expect(signInRequest({ ...form, serverUrl: 'http://exa mple' }, false)).toMatchObject({ ok: false, error: expect.stringContaining('not a valid') });
    expect(signInRequest({ ...form, email: '' }, false)).toMatchObject({ ok: false, error: 'Enter your email address.' });
    expect(signInRequest({ ...form, secret: '' }, false)).toMatchObject({ ok: false, error: 'Enter your password.' });
    expect(signInRequest({ ...form, method: 'api_key', secret: '' }, false)).toMatchObject({ ok: false, error: 'Enter your API key.' });
  });
});

describe('sign-in outcome', () => {
  it('asks for consent on PLAIN_STORAGE_CONSENT_REQUIRED, carrying the engine message', () => {
    const e = new BridgeError('PLAIN_STORAGE_CONSENT_REQUIRED', 'no encryption here');
    expect(signInOutcome(e)).toEqual({ kind: 'ask-consent', message: 'No encryption here' });
  });

  it('is done without an error, and shows any other error as a sentence', () => {
    expect(signInOutcome(undefined)).toEqual({ kind: 'signed-in' });
    expect(signInOutcome(new BridgeError('SERVER', 'Your username or password is incorrect'))).toEqual({ kind: 'error', message: 'The server refused: Your username or password is incorrect' });
    expect(signInOutcome(new BridgeError('OFFLINE', 'connect ECONNREFUSED'))).toMatchObject({ message: 'Could not reach the server: connect ECONNREFUSED' });
  });

  it('phrases every code, and non-bridge errors by their message', () => {
    expect(errorText(new BridgeError('UNAVAILABLE', 'no sandbox'))).toBe('Not available here: no sandbox');
    expect(errorText(new BridgeError('INVALID_REQUEST', 'bad'))).toBe('Check what you entered: bad');
    expect(errorText(new BridgeError('NO_ACCOUNT', 'none'))).toBe('No account is open: none');
    expect(errorText(new BridgeError('INTERNAL', 'bug'))).toBe('bug');
    expect(errorText(new Error('plain'))).toBe('plain');
    expect(errorText('text')).toBe('text');
  });
});
