/**
 * The list of accounts and which one is open, in `accounts.json` beside the account databases.
 * Written atomically (temporary file + rename) so a crash never leaves half a list. API keys are
 * never here: they live in the host's `SecretStore`.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { ensurePrivateDir, narrowPrivateFile } from '../db/open.js';
import { accountSummarySchema, keptWorkSchema, type AccountSummary, type KeptWork } from '../protocol/accounts.js';

const fileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(accountSummarySchema),
  active: z.string().nullable(),
  /** The sandbox's last port, tried first so its URL (and the cache keyed by it) stays stable. */
  sandbox_port: z.number().int().positive().nullable().optional(),
  /** Accounts signed out with their unsent work kept (their databases stay beside this file). */
  kept: z.array(keptWorkSchema).optional(),
});
export type AccountsFile = z.output<typeof fileSchema>;

const EMPTY: AccountsFile = { version: 1, accounts: [], active: null, sandbox_port: null };

export class AccountsList {
  private value: AccountsFile;
  private readonly file: string | undefined;
  /** The file holds `value` (read from it, or written since): a change to nothing skips the write. */
  private stored: boolean;

  /** `dataDir` `:memory:` keeps the list in memory only (tests). */
  constructor(dataDir: string) {
    this.file = dataDir === ':memory:' ? undefined : path.join(dataDir, 'accounts.json');
    const read = this.file ? load(this.file) : undefined;
    this.value = read ?? { ...EMPTY };
    this.stored = read !== undefined;
    // Not rewritten at each start any more (see setActive), so narrowed here.
    if (this.file && read) narrowPrivateFile(this.file);
  }

  get accounts(): readonly AccountSummary[] {
    return this.value.accounts;
  }

  get active(): string | null {
    return this.value.active;
  }

  get sandboxPort(): number | null {
    return this.value.sandbox_port ?? null;
  }

  find(id: string): AccountSummary | undefined {
    return this.value.accounts.find((a) => a.id === id);
  }

  get kept(): readonly KeptWork[] {
    return this.value.kept ?? [];
  }

  /** Adding an account (signing in again) ends what was kept for it: its database resumes it. */
  upsert(a: AccountSummary): void {
    // In place when it is there already: the organisations bar keeps the person's order.
    const accounts = this.value.accounts.some((x) => x.id === a.id) ? this.value.accounts.map((x) => (x.id === a.id ? a : x)) : [...this.value.accounts, a];
    this.save({ ...this.value, accounts, kept: this.kept.filter((k) => k.id !== a.id) });
  }

  /** The listed ids first, in that order; the others after them in their old order. */
  reorder(ids: readonly string[]): void {
    const rank = (id: string) => {
      const i = ids.indexOf(id);
      return i < 0 ? ids.length : i;
    };
    this.save({ ...this.value, accounts: [...this.value.accounts].sort((a, b) => rank(a.id) - rank(b.id)) });
  }

  keep(k: KeptWork): void {
    this.save({ ...this.value, kept: [...this.kept.filter((x) => x.id !== k.id), k] });
  }

  remove(id: string): void {
    this.save({ ...this.value, accounts: this.value.accounts.filter((x) => x.id !== id), active: this.value.active === id ? null : this.value.active });
  }

  /** Unchanged, nothing is written: every start shows the account open last time (a write and a rename, ~4 ms of it). */
  setActive(id: string | null): void {
    if (this.stored && this.value.active === id) return;
    this.save({ ...this.value, active: id });
  }

  setSandboxPort(port: number): void {
    this.save({ ...this.value, sandbox_port: port });
  }

  private save(next: AccountsFile): void {
    this.value = next;
    if (!this.file) return;
    ensurePrivateDir(path.dirname(this.file));
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(next, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
    this.stored = true;
  }
}

/** The file's list; undefined when there is none (an empty list) or it is unreadable (kept aside), never a crash. */
function load(file: string): AccountsFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const r = fileSchema.safeParse(JSON.parse(text));
    if (r.success) return r.data;
  } catch {
    // fall through: keep the broken file aside rather than overwrite it silently
  }
  try {
    renameSync(file, `${file}.broken-${Date.now()}`);
  } catch {
    // nothing more to do: start empty
  }
  return undefined;
}
