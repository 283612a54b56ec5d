/**
 * A link the operating system handed the app (main/links.ts parsed it), opened: on the realm of the
 * open account, its narrow in the page; on the realm of another account signed in here, that account
 * first; on a realm with no account here, the sign-in screen filled with the server's URL. The page
 * hears it over IPC_OPEN (the preload's `onOpen`), parsed there with `openLinkSchema`.
 */
import { accountsStateSchema, type AccountsState } from '../sync/protocol/accounts.js';
import type { OpenLink } from '../sync/protocol/desktop.js';
import type { EngineClient } from '../sync/service/index.js';
import { realmMatches, type AppLink } from './links.js';

export interface LinkDeps {
  readonly accounts: () => Promise<AccountsState>;
  readonly switchAccount: (id: string) => Promise<void>;
  /** Show the window and send the page what to open. */
  readonly send: (target: OpenLink) => void;
}

export async function openLink(link: AppLink, deps: LinkDeps): Promise<void> {
  const state = await deps.accounts();
  const matching = state.accounts.filter((a) => realmMatches(link, a.realm_url));
  const account = matching.find((a) => a.id === state.active) ?? matching[0];
  if (!account) {
    deps.send({ kind: 'sign_in', server_url: link.serverUrl });
    return;
  }
  if (account.id !== state.active) await deps.switchAccount(account.id);
  deps.send({ kind: 'narrow', hash: link.hash ?? '#inbox' });
}

/** The deps over an engine client of main's own. */
export function linkDepsOf(client: EngineClient, send: (target: OpenLink) => void): LinkDeps {
  const call = async (name: string, request: unknown) => {
    const r = await client.invoke(name, request);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.value;
  };
  return {
    accounts: async () => accountsStateSchema.parse(await call('accounts', {})),
    switchAccount: async (id) => void (await call('switchAccount', { id })),
    send,
  };
}
