/**
 * The browser-mode host's session this tab holds (sync/protocol/browser-host.ts): put in the
 * origin's `sessionStorage` by the sign-in link's landing page. None under Electron.
 */
import { HOST_SESSION_KEY, parseHostSession, type HostSession } from '../../../sync/protocol/browser-host.js';

export function hostSession(): HostSession | undefined {
  try {
    return parseHostSession(window.sessionStorage.getItem(HOST_SESSION_KEY));
  } catch {
    // Storage refused (a sandboxed frame): no session.
    return undefined;
  }
}
