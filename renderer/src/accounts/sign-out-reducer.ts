/**
 * Pure: what the sign-out dialog says and offers. With nothing left behind the account signs out
 * at once; otherwise the user chooses: send them first, keep them for later (the same account's
 * next sign-in resumes them), or discard them (named as such).
 */
import type { KeptWork, SignOutCheck } from '../../../sync/protocol/accounts.js';

export type SignOutChoice = 'wait' | 'keep' | 'discard';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Changes not yet on the server. */
export const unsent = (c: SignOutCheck): number => c.pending + c.failed + c.conflict;

/** Whether to ask before signing out. */
export const mustAsk = (c: SignOutCheck): boolean => unsent(c) > 0 || c.drafts > 0;

/** One sentence of what would be left behind. */
export function leftBehindText(c: SignOutCheck): string {
  const parts: string[] = [];
  if (c.pending > 0) parts.push(`${plural(c.pending, 'change')} waiting to be sent`);
  if (c.failed > 0) parts.push(`${plural(c.failed, 'change')} that failed`);
  if (c.conflict > 0) parts.push(`${plural(c.conflict, 'edit')} in conflict`);
  if (c.drafts > 0) parts.push(`${plural(c.drafts, 'draft')}`);
  if (parts.length === 0) return 'Nothing is waiting on this device.';
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
  return `This device has ${list} for this account.`;
}

export interface ChoiceView {
  readonly choice: SignOutChoice;
  readonly label: string;
  readonly hint: string;
  readonly danger: boolean;
}

/** The buttons, most careful first. "Send first" only when something can be sent. */
export function choices(c: SignOutCheck): ChoiceView[] {
  const out: ChoiceView[] = [];
  if (c.pending > 0) out.push({ choice: 'wait', label: 'Send them first, then sign out', hint: 'Stays signed in until everything pending has reached the server.', danger: false });
  out.push({ choice: 'keep', label: 'Keep them and sign out', hint: 'They stay on this device and are sent when you sign in to this account again.', danger: false });
  out.push({ choice: 'discard', label: unsent(c) > 0 ? 'Discard them and sign out' : 'Delete the drafts and sign out', hint: 'They are deleted from this device for good.', danger: true });
  return out;
}

/** What the welcome screen says of work kept for a signed-out account ("Keep them and sign out"). */
export function keptText(k: KeptWork): string {
  let host = k.realm_url;
  try {
    host = new URL(k.realm_url).host;
  } catch {
    // Not a URL after all: say it as it is.
  }
  const who = k.kind === 'sandbox' ? `the sandbox (${k.email})` : `${k.email} on ${host}`;
  const again = k.kind === 'sandbox' ? 'open the sandbox again' : 'sign in to this account again';
  const list = [k.unsent > 0 ? plural(k.unsent, 'unsent change') : '', k.drafts > 0 ? plural(k.drafts, 'draft') : ''].filter(Boolean).join(' and ');
  const what = k.unsent > 0 ? 'Unsent changes are' : 'Drafts are';
  const then = k.unsent > 0 && k.drafts > 0 ? 'The changes will be sent and the drafts be back' : k.unsent > 0 ? 'They will be sent' : 'They will be back';
  return `${what} kept on this device for ${who}: ${list}. ${then} when you ${again}.`;
}
