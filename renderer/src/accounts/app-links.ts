/**
 * Links the operating system gave the Electron app (main/open-link.ts), heard through the preload's
 * `onOpen` and parsed with the contract's `openLinkSchema`: a narrow of the open account is
 * navigated to; a server with no account here shows the sign-in screen filled with its URL (over
 * the open account, which a Cancel brings back). In a browser there are none. The organisations
 * bar's "Add organisation" shows the same screen, empty.
 */
import { createSignal } from 'solid-js';
import { openLinkSchema } from '../../../sync/protocol/desktop.js';

const [signInTo, setSignInTo] = createSignal<string | null>(null);

/** The server a link asked to sign in to (or '' for "Add organisation"), while the sign-in screen shows for it. */
export const linkSignIn = { server: signInTo, done: (): void => void setSignInTo(null) };

/** The organisations bar's "Add organisation": the sign-in screen over the shown account, nobody signed out. */
export function addOrganisation(): void {
  setSignInTo('');
}

/** Listen while the page lives; returns the stop. */
export function startAppLinks(navigate: (hash: string) => void): () => void {
  const onOpen = typeof window === 'undefined' ? undefined : window.zulip?.onOpen;
  if (typeof onOpen !== 'function') return () => undefined;
  let live = true;
  onOpen((raw) => {
    const link = openLinkSchema.safeParse(raw);
    if (!live || !link.success) return;
    if (link.data.kind === 'sign_in') {
      setSignInTo(link.data.server_url);
      return;
    }
    setSignInTo(null);
    navigate(link.data.hash);
  });
  return () => void (live = false);
}
