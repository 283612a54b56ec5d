/**
 * The locks on every web page Electron creates (Electron's security checklist):
 *   - window.open and target=_blank never open an Electron window; http(s) links go to the
 *     system browser, any other scheme (file:, javascript:, smb:, custom handlers) goes nowhere;
 *   - the page never navigates or is redirected away from our own renderer URL (a plain link click
 *     to an http(s) page opens it in the system browser instead);
 *   - <webview> never attaches;
 *   - every permission request and permission check is denied (notifications, media, geolocation,
 *     clipboard read, HID/serial/USB devices...): nothing the app needs today;
 *   - every response carries our CSP header (file:// pages carry it as a meta tag too).
 */
import { shell, type Session, type WebContents } from 'electron';

/** Only web links leave the app, and only to the system browser. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Open `url` in the system browser when it is an http(s) URL; anything else is dropped. */
export function openExternalSafely(url: string): boolean {
  if (!isExternalWebUrl(url)) return false;
  shell.openExternal(url).catch((e: unknown) => console.warn(`could not open ${url}: ${String(e)}`));
  return true;
}

export function guardWebContents(contents: WebContents, isOwn: (url: string) => boolean): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isOwn(event.url)) return;
    event.preventDefault();
    // A link clicked in a message (no target) is the user asking to open it: the system browser.
    if (event.isMainFrame) openExternalSafely(event.url);
  });
  // Subframes too (the CSP already forbids frames; this holds even if a policy slipped).
  contents.on('will-frame-navigate', (event) => {
    if (!isOwn(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isOwn(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The one permission the app's own page gets: desktop notifications (renderer/src/notifications/). */
const ALLOWED_PERMISSIONS = new Set(['notifications']);

export function applySessionPolicy(ses: Session, csp: string, isOwn: (url: string) => boolean = () => false): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    // DevTools' own pages keep their policy; every app and network response gets ours.
    if (details.url.startsWith('devtools:')) {
      callback({});
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(details.responseHeaders ?? {})) {
      // One policy, ours: whatever a response brings is replaced, so what applies is what tests check.
      if (k.toLowerCase() !== 'content-security-policy') headers[k] = v;
    }
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => callback(ALLOWED_PERMISSIONS.has(permission) && isOwn(details.requestingUrl)));
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => ALLOWED_PERMISSIONS.has(permission) && isOwn(requestingOrigin));
  ses.setDevicePermissionHandler(() => false);
}
