/**
 * The words a person reads after their account's database was found damaged and rebuilt
 * (docs/sync-design.md "Damaged data"): what happened, what was kept, what happens next.
 */
import path from 'node:path';
import type { SalvageReport } from '../db/damage.js';
import type { DamageNotice } from '../protocol/accounts.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function damageNotice(accountId: string, r: SalvageReport): DamageNotice {
  const parts = [r.queuedKept > 0 ? count(r.queuedKept, 'queued change', 'queued changes') : '', r.draftsKept > 0 ? count(r.draftsKept, 'draft', 'drafts') : ''].filter((p) => p !== '');
  const single = parts.length === 1 && r.queuedKept + r.draftsKept === 1;
  const kept = parts.length === 0 ? 'No queued changes or drafts could be read from it' : `${parts.join(' and ')} ${single ? 'was' : 'were'} kept`;
  return {
    account_id: accountId,
    text: `This device's copy of the account was damaged. ${kept}; messages are being fetched again. The damaged file was kept as ${path.basename(r.keptAside)}.`,
    queued_kept: r.queuedKept,
    drafts_kept: r.draftsKept,
    kept_file: r.keptAside,
  };
}
