/**
 * The browser-mode host's session this tab holds (sync/protocol/browser-host.ts): put in the
 * origin's `sessionStorage` by the sign-in link's landing page. None under Electron.
 */
import { HOST_SESSION_KEY, parseHostSession, type HostSession } from '../../../sync/protocol/browser-host.js';

/** The last stored text parsed, and what it gave (every message row asks, through its image context). */
let last: { stored: string | null; session: HostSession | undefined } | undefined;

export function hostSession(): HostSession | undefined {
  try {
    const stored = window.sessionStorage.getItem(HOST_SESSION_KEY);
    if (last?.stored !== stored) last = { stored, session: parseHostSession(stored) };
    return last.session;
  } catch {
    // Storage refused (a sandboxed frame): no session.
    return undefined;
  }
}
