/**
 * The security-relevant BrowserWindow options and the Content Security Policy, kept apart so tests
 * can check them without Electron. The page runs sandboxed with context isolation and no Node; it
 * reaches the engine only through the preload's `window.zulip` (main/preload.ts).
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { UPLOAD_SCHEME } from '../sync/protocol/uploads.js';

export function secureWebPreferences(preloadPath: string): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    // No <webview> (will-attach-webview is refused as well), no experimental web platform features.
    webviewTag: false,
    experimentalFeatures: false,
    // A file dropped on the window would otherwise navigate the page to it.
    navigateOnDragDrop: false,
    // A page looping on alert() gets a "prevent more dialogs" checkbox.
    safeDialogs: true,
    spellcheck: true,
  };
}

/**
 * Strict CSP for the renderer: only our own bundle; no inline or eval'd scripts, no remote code.
 * Images only from the app and the `zulip-upload:` scheme (the realm's uploads, fetched by the
 * engine with the account's credentials and kept for offline viewing: main/uploads.ts), never from
 * remote servers; everything else (fonts, styles, connections) only from the app itself. The same
 * policy is in renderer/index.html as a meta tag because file:// pages carry no response headers.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  `img-src 'self' ${UPLOAD_SCHEME}:`,
  // Zulip's inline videos of the realm's uploads, through the same scheme.
  `media-src 'self' ${UPLOAD_SCHEME}:`,
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
