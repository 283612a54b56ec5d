/**
 * Pure: the invitation and create-user forms. Which roles a person may invite as (never above
 * their own: the server refuses owners by non-owners and moderators and up by non-administrators),
 * the expiry presets, the addresses as typed (commas or newlines), the request the engine's
 * `sendInvites` takes, and what an `INVITATION_FAILED` refusal says, address by address.
 */
import type { OperationRequest } from '../../../sync/protocol/rpc.js';
import { isBridgeError } from '../core/bridge-error.js';
import { errorText } from '../core/errors.js';

export type InviteRole = 100 | 200 | 300 | 400 | 600;
export type InviteRequest = OperationRequest<'sendInvites'>;

export const ROLE_NAMES: Readonly<Record<InviteRole, string>> = {
  100: 'Organization owner',
  200: 'Organization administrator',
  300: 'Moderator',
  400: 'Member',
  600: 'Guest',
};

const ORDER: readonly InviteRole[] = [600, 400, 300, 200, 100];

export const isAdminRole = (role: number | null): boolean => role !== null && role <= 200;

/**
 * The roles `ownRole` may invite as, lowest first. Owners: every role; administrators: up to
 * administrator; moderators and members: member or guest; guests (and unknown): none.
 */
export function roleOptions(ownRole: number | null): InviteRole[] {
  if (ownRole === null || ownRole >= 600) return [];
  if (ownRole === 100) return [...ORDER];
  if (ownRole <= 200) return ORDER.filter((r) => r >= 200);
  return ORDER.filter((r) => r >= 400);
}

/** Spec "Limits": the server's default validity, 14400 minutes (10 days). */
export const DEFAULT_EXPIRY_MINUTES = 14400;

export const EXPIRY_PRESETS: ReadonlyArray<{ id: string; label: string; minutes: number | null }> = [
  { id: '30m', label: '30 minutes', minutes: 30 },
  { id: '1d', label: '1 day', minutes: 24 * 60 },
  { id: '3d', label: '3 days', minutes: 3 * 24 * 60 },
  { id: '10d', label: '10 days', minutes: DEFAULT_EXPIRY_MINUTES },
  { id: '30d', label: '30 days', minutes: 30 * 24 * 60 },
  { id: 'never', label: 'Never expires', minutes: null },
];

export type ExpiryUnit = 'minutes' | 'hours' | 'days';
const UNIT_MINUTES: Record<ExpiryUnit, number> = { minutes: 1, hours: 60, days: 24 * 60 };

/** Minutes for a preset id or `custom` (amount in unit); null = never; a string says what is wrong. */
export function expiryMinutes(choice: string, amount: string, unit: ExpiryUnit): number | null | { error: string } {
  if (choice !== 'custom') {
    const p = EXPIRY_PRESETS.find((x) => x.id === choice);
    return p ? p.minutes : { error: 'Pick when the invitation expires.' };
  }
  const n = Number(amount.trim());
  if (amount.trim() === '' || !Number.isInteger(n) || n <= 0) return { error: 'A custom expiry is a whole number above zero.' };
  const minutes = n * UNIT_MINUTES[unit];
  if (!Number.isSafeInteger(minutes)) return { error: 'That expiry is too far away.' };
  return minutes;
}

/** Addresses as typed: split on commas and newlines, trimmed, blanks dropped, each once (case kept). */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    const e = part.trim();
    if (e === '' || seen.has(e.toLowerCase())) continue;
    seen.add(e.toLowerCase());
    out.push(e);
  }
  return out;
}

export interface InviteFormValues {
  emails: string;
  inviteAs: InviteRole;
  channelIds: readonly number[];
  includeDefaults: boolean;
  groupIds: readonly number[];
  expiry: string;
  customAmount: string;
  customUnit: ExpiryUnit;
  notifyReferrer: boolean;
  /** Only sent by administrators; null = the organization's default text. */
  welcome: string | null;
}

/** Spec "Limits": welcome_message_custom_text is at most 8000 characters. */
export const MAX_WELCOME_LENGTH = 8000;

/** The engine request, or why the form cannot be sent as it is. */
export function inviteRequest(v: InviteFormValues, ownRole: number | null): { request: InviteRequest } | { error: string } {
  const emails = parseEmails(v.emails);
  if (emails.length === 0) return { error: 'Enter at least one email address.' };
  const minutes = expiryMinutes(v.expiry, v.customAmount, v.customUnit);
  if (minutes !== null && typeof minutes === 'object') return minutes;
  const request: InviteRequest = {
    emails,
    channel_ids: [...v.channelIds],
    invite_as: v.inviteAs,
    invite_expires_in_minutes: minutes,
    group_ids: [...v.groupIds],
    include_realm_default_subscriptions: v.includeDefaults,
    notify_referrer_on_join: v.notifyReferrer,
  };
  if (isAdminRole(ownRole) && v.welcome !== null) {
    if ([...v.welcome].length > MAX_WELCOME_LENGTH) return { error: `The welcome message is at most ${MAX_WELCOME_LENGTH} characters.` };
    request.welcome_message_custom_text = v.welcome;
  }
  return { request };
}

export interface InviteOutcome {
  /** The server's own summary, or ours for a success. */
  message: string;
  /** Addresses not invited, with the server's reason. */
  failed: Array<{ email: string; reason: string; deactivated: boolean }>;
  /** Addresses invited (all of them on success; the others when `sent_invitations`). */
  invited: string[];
  /** Limits the server said were reached, as sentences. */
  limits: string[];
  ok: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a `sendInvites` answer means for the person, address by address. Never throws. */
export function inviteOutcome(emails: readonly string[], error: unknown | null): InviteOutcome {
  if (error === null) return { ok: true, message: `Invitations sent to ${emails.length === 1 ? emails[0] : `${emails.length} addresses`}.`, failed: [], invited: [...emails], limits: [] };
  const outer = isBridgeError(error) ? error.details : undefined;
  const d = isRecord(outer) && outer['code'] === 'INVITATION_FAILED' && isRecord(outer['details']) ? outer['details'] : undefined;
  if (!d || !isBridgeError(error)) return { ok: false, message: errorText(error), failed: [], invited: [], limits: [] };
  const failed: InviteOutcome['failed'] = [];
  for (const e of Array.isArray(d['errors']) ? d['errors'] : []) {
    if (Array.isArray(e) && typeof e[0] === 'string') failed.push({ email: e[0], reason: typeof e[1] === 'string' ? e[1] : '', deactivated: e[2] === true });
  }
  const failedSet = new Set(failed.map((f) => f.email.toLowerCase()));
  const sent = d['sent_invitations'] === true;
  const limits: string[] = [];
  if (d['daily_limit_reached'] === true) limits.push('The daily limit of invitations is reached.');
  if (d['license_limit_reached'] === true) limits.push('The organization has not enough unused licenses.');
  return {
    ok: false,
    message: error.message,
    failed,
    invited: sent ? emails.filter((e) => !failedSet.has(e.toLowerCase())) : [],
    limits,
  };
}

export interface CreateUserValues {
  email: string;
  password: string;
  fullName: string;
}

/** The `createUser` request, or what is missing. */
export function createUserRequest(v: CreateUserValues): { request: OperationRequest<'createUser'> } | { error: string } {
  const email = v.email.trim();
  const full_name = v.fullName.trim();
  if (email.length < 3 || !email.includes('@')) return { error: 'Enter the new user’s email address.' };
  if (full_name === '') return { error: 'Enter the new user’s full name.' };
  if (v.password === '') return { error: 'Enter a password for the new user.' };
  return { request: { email, password: v.password, full_name } };
}

/** Said before the forms while the account is not live. */
export const NEEDS_CONNECTION = 'needs a connection to the server. You are not connected now; nothing will be sent until you are back online.';
