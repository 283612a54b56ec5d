/**
 * Accounts as the UI sees them: which accounts exist, which one is open, and how to add one (sign
 * in to a Zulip server with a password or an API key, or open the embedded sandbox). Credentials go
 * in, never come back out: no query returns an API key.
 */
import { z } from 'zod';

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

export const accountsStateSchema = z.object({
  accounts: z.array(accountSummarySchema),
  /** The open account, if any. */
  active: z.string().nullable(),
  secret_storage: secretStorageSchema,
  /** Whether this host can start the embedded sandbox. */
  sandbox_available: z.boolean(),
});
export type AccountsState = z.output<typeof accountsStateSchema>;

const realmUrl = z
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
  }, 'a server URL such as https://chat.example.com');

const credentials = z.union([
  z.object({ password: z.string().min(1).max(1000) }).strict(),
  z.object({ api_key: z.string().min(1).max(200) }).strict(),
]);

export const signInRequestSchema = z.object({
  realm_url: realmUrl,
  email: z.string().trim().min(1).max(500),
  credentials,
  /**
   * The user agreed to keep the API key unencrypted where the platform offers no encryption. Without
   * it such a sign-in fails with `PLAIN_STORAGE_CONSENT_REQUIRED` and stores nothing.
   */
  allow_plain_storage: z.boolean().optional(),
});
export type SignInRequest = z.output<typeof signInRequestSchema>;

const none = z.object({});
const accountId = z.object({ id: z.string().min(1).max(1000) });

/** Account operations (request / response pairs), merged into the contract's operation table. */
export const accountOperations = {
  accounts: { request: none, response: accountsStateSchema },
  /** Check the server, exchange a password for an API key if given, store it, open the account. */
  signIn: { request: signInRequestSchema, response: accountSummarySchema },
  /** Start (or reuse) the embedded sandbox and open its demo account. */
  openSandbox: { request: none, response: accountSummarySchema },
  /** Open another stored account (closing the open one). */
  switchAccount: { request: accountId, response: accountSummarySchema },
  /** Forget the account's key and local database. */
  signOut: { request: accountId, response: z.object({ ok: z.literal(true) }) },
} as const;
