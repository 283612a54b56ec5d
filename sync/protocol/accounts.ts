/**
 * Accounts as the UI sees them: which accounts exist, which one is open, and how to add one (sign
 * in to a Zulip server with a password or an API key, or open the embedded sandbox). Credentials go
 * in, never come back out: no query returns an API key.
 */
import * as z from 'zod';

export const accountSummarySchema = z.object({
  /** Stable local id of the account (realm URL + email). */
  id: z.string(),
  realm_url: z.string(),
  email: z.string(),
  /** `sandbox`: the embedded reference server with the demo realm. */
  kind: z.enum(['server', 'sandbox']),
});
export type AccountSummary = z.output<typeof accountSummarySchema>;

/** How the host keeps API keys at rest. `plain`: the platform offers no encryption. */
export const secretStorageSchema = z.enum(['encrypted', 'plain']);

/**
 * The open account's database was found damaged and rebuilt (docs/sync-design.md "Damaged data"):
 * what happened and what was kept, in words the page shows until the person dismisses them.
 */
export const damageNoticeSchema = z.lazy(() => z.object({
  account_id: z.string(),
  text: z.string(),
  queued_kept: z.number().int().nonnegative(),
  drafts_kept: z.number().int().nonnegative(),
  /** Where the damaged file was kept (it is never deleted by the recovery). */
  kept_file: z.string(),
}));
export type DamageNotice = z.output<typeof damageNoticeSchema>;

/**
 * An account signed out with "keep" while it had unsent changes or drafts: they wait in its
 * database on this device and resume when the same account signs in again (which ends the entry).
 */
export const keptWorkSchema = z.lazy(() => accountSummarySchema.extend({
  /** Changes not on the server (pending, failed or in conflict) when it signed out. */
  unsent: z.number().int().nonnegative(),
  drafts: z.number().int().nonnegative(),
}));
export type KeptWork = z.output<typeof keptWorkSchema>;

export const accountsStateSchema = z.lazy(() => z.object({
  accounts: z.array(accountSummarySchema),
  /** The open account, if any. */
  active: z.string().nullable(),
  secret_storage: secretStorageSchema,
  /** Whether this host can start the embedded sandbox. */
  sandbox_available: z.boolean(),
  /** The open account's database was damaged and rebuilt; absent or null otherwise. */
  damage_notice: damageNoticeSchema.nullable().optional(),
  /** Work kept on this device for accounts signed out with "keep" (absent: none). */
  kept: z.array(keptWorkSchema).optional(),
}));
export type AccountsState = z.output<typeof accountsStateSchema>;

const realmUrl = z.lazy(() => z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'a server URL such as https://chat.example.com'));

const credentials = z.lazy(() => z.union([
  z.object({ password: z.string().min(1).max(1000) }).strict(),
  z.object({ api_key: z.string().min(1).max(200) }).strict(),
]));

export const signInRequestSchema = z.lazy(() => z.object({
  realm_url: realmUrl,
  email: z.string().trim().min(1).max(500),
  credentials,
  /**
   * The user agreed to keep the API key unencrypted where the platform offers no encryption. Without
   * it such a sign-in fails with `PLAIN_STORAGE_CONSENT_REQUIRED` and stores nothing.
   */
  allow_plain_storage: z.boolean().optional(),
}));
export type SignInRequest = z.output<typeof signInRequestSchema>;

const none = z.object({});
const accountId = z.object({ id: z.string().min(1).max(1000) });
const count = z.number().int().nonnegative();
export const signOutCheckSchema = z.object({ pending: count, failed: count, conflict: count, drafts: count });
export type SignOutCheck = z.output<typeof signOutCheckSchema>;

/**
 * An account as the organisations bar shows it, in the person's order: every signed-in account is
 * open and syncs in the background; `connection` is its session's state (`closed`: it could not be
 * opened, e.g. its key is missing), `unread` its unread count (0 while closed).
 */
export const organisationSchema = accountSummarySchema.extend({
  name: z.string(),
  unread: count,
  connection: z.enum(['closed', 'stopped', 'connecting', 'syncing', 'live', 'offline', 'unauthorized', 'disk_full', 'error']),
});
export type Organisation = z.output<typeof organisationSchema>;

/** Account operations (request / response pairs), merged into the contract's operation table. */
export const accountOperations = {
  accounts: { request: none, response: accountsStateSchema },
  /** Check the server, exchange a password for an API key if given, store it, open the account. */
  signIn: { request: signInRequestSchema, response: accountSummarySchema },
  /** Start (or reuse) the embedded sandbox and open its demo account. */
  openSandbox: { request: none, response: accountSummarySchema },
  /** The person has read the damage notice: stop showing it. */
  dismissDamageNotice: { request: none, response: z.object({ ok: z.literal(true) }) },
  /** Show another stored account (opening it if it is not open; the others stay open and sync). */
  switchAccount: { request: accountId, response: accountSummarySchema },
  /** The organisations bar: every account with its unread count and connection (area `organisations`). */
  organisations: { request: none, response: z.array(organisationSchema) },
  /** The accounts' order on the bar (kept in the accounts file); ids not listed keep their place after the listed ones. */
  reorderAccounts: { request: z.lazy(() => z.object({ ids: z.array(z.string().min(1).max(1000)).max(1000) })), response: z.object({ ok: z.literal(true) }) },
  /** What signing out would leave behind: changes not yet on the server, and drafts. */
  signOutCheck: { request: accountId, response: signOutCheckSchema },
  /**
   * Forget the account's key. With changes not yet on the server (pending, failed or in conflict)
   * it refuses with PENDING_CHANGES unless `queued` says what to do with them:
   *   wait     send them first (up to `wait_ms`); signs out only once nothing is left, else
   *            PENDING_CHANGES with what remains and nothing done
   *   keep     keep the account's database (outbox and drafts) on disk: they resume when the same
   *            account signs in again
   *   discard  delete them with the local copy (what "sign out" did before)
   * With nothing queued the local copy is deleted (drafts too, unless `queued` is `keep`).
   */
  signOut: {
    request: z.lazy(() => accountId.extend({ queued: z.enum(['wait', 'keep', 'discard']).optional(), wait_ms: z.number().int().min(0).max(600_000).default(60_000) })),
    response: z.object({ ok: z.literal(true), kept: z.boolean() }),
  },
} as const;
