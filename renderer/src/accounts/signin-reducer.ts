/**
 * Pure: the sign-in form → the contract's request, and the outcome of an attempt. The
 * consent flow (PLAIN_STORAGE_CONSENT_REQUIRED → ask → retry with `allow_plain_storage`) is decided
 * by `signInOutcome`, so the screen only renders what it returns.
 */
import type { SignInRequest } from '../../../sync/protocol/accounts.js';
import { isBridgeError } from '../core/bridge-error.js';
import { errorText, sentence } from '../core/errors.js';

export type Credential = 'password' | 'api_key';

export interface SignInForm {
  serverUrl: string;
  email: string;
  method: Credential;
  secret: string;
}

/** "chat.example.com" → "https://chat.example.com"; explicit http(s) URLs are kept. */
export function normalizeServerUrl(input: string): string {
  const s = input.trim();
  if (s === '') return s;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
}

export function signInRequest(form: SignInForm, allowPlainStorage: boolean): { ok: true; request: SignInRequest } | { ok: false; error: string } {
  const realm_url = normalizeServerUrl(form.serverUrl);
  if (realm_url === '') return { ok: false, error: 'Enter the server URL, for example https://chat.example.com.' };
  try {
    const u = new URL(realm_url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, error: 'The server URL must start with https:// or http://.' };
  } catch {
    return { ok: false, error: `“${form.serverUrl.trim()}” is not a valid server URL.` };
  }
  const email = form.email.trim();
  if (email === '') return { ok: false, error: 'Enter your email address.' };
  if (form.secret === '') return { ok: false, error: form.method === 'password' ? 'Enter your password.' : 'Enter your API key.' };
  const credentials = form.method === 'password' ? { password: form.secret } : { api_key: form.secret.trim() };
  const request: SignInRequest = { realm_url, email, credentials };
  if (allowPlainStorage) request.allow_plain_storage = true;
  return { ok: true, request };
}

export type SignInOutcome =
  | { kind: 'signed-in' }
  | { kind: 'ask-consent'; message: string }
  /** The server's certificate is not trusted: offer to look at it (and trust it). */
  | { kind: 'certificate'; message: string }
  | { kind: 'error'; message: string };

/** What the screen does after a sign-in attempt: done, ask for consent, or show an error. */
export function signInOutcome(error: unknown): SignInOutcome {
  if (error === undefined) return { kind: 'signed-in' };
  if (isBridgeError(error) && error.code === 'PLAIN_STORAGE_CONSENT_REQUIRED') return { kind: 'ask-consent', message: sentence(error.message) };
  if (isBridgeError(error) && error.details?.['kind'] === 'certificate') return { kind: 'certificate', message: `${sentence(error.message)}.` };
  return { kind: 'error', message: errorText(error) };
}
