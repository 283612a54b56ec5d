/**
 * Signing a browser in to the browser-mode host, without a cookie (sync/protocol/browser-host.ts):
 *
 *   GET /?token=TOKEN   the printed one-time link: a small page carrying the secret and the uploads
 *                       key in a `<meta>`, whose script (`SIGNIN_SCRIPT_PATH`, the CSP allows no
 *                       inline script) keeps them in the origin's `sessionStorage` and opens `/`
 *                       (the token is spent: the link left in the history opens nothing for
 *                       anyone else; the page it signed in is just sent to `/` by the same script)
 *   GET /signed-out     where the app goes without a stored secret: how to get a link
 *
 * The secret outlives a restart of the host where that is safe: it is kept in the data directory
 * (0600) with the port it was given on, and a host that gets the same port again (it asks for it
 * first) keeps it, so an open page reconnects by itself. On any other port, the page's origin is a
 * different one anyway: a new secret, and the new link signs the browser in there.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { HOST_SESSION_KEY } from '../../sync/protocol/browser-host.js';

export { SIGNED_OUT_PATH } from '../../sync/protocol/browser-host.js';

export const SIGNIN_SCRIPT_PATH = '/host-signin.js';

const META = 'zulip-offline-host';

/** Stores what the landing page carries and opens the app; on any other page, opens the app if signed in. */
export const SIGNIN_SCRIPT = `(() => {
  const meta = document.querySelector('meta[name="${META}"]');
  if (meta) {
    const [secret, uploads] = meta.getAttribute('content').split(' ');
    sessionStorage.setItem(${JSON.stringify(HOST_SESSION_KEY)}, JSON.stringify({ secret, uploads }));
    location.replace('/');
  } else if (sessionStorage.getItem(${JSON.stringify(HOST_SESSION_KEY)}) !== null) {
    location.replace('/');
  }
})();
`;

const SCRIPT_TAG = `<script src="${SIGNIN_SCRIPT_PATH}"></script>`;

function page(title: string, head: string, body: string[]): string {
  // color-scheme: the browser's own light or dark rendering (the CSP allows no inline style).
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">${head}<title>${title}</title></head><body>`,
    ...body,
    '</body></html>',
  ].join('\n');
}

/** The answer to a valid link (`no-store`): the only response that carries the secret. */
export function landingPage(secret: string, uploadKey: string): string {
  return page('Signing in…', `<meta name="${META}" content="${secret} ${uploadKey}">${SCRIPT_TAG}`, ['<p>Signing in…</p>']);
}

const FRESH_LINK =
  '<p>To get a fresh link, send the host the USR2 signal (<code>kill -USR2 PID</code>, the PID the host printed) and open the new <code>Open http://127.0.0.1:…</code> line it prints, or restart the host.</p>';

/** The answer to a spent, replaced or wrong sign-in link: what happened and how to get a fresh one. */
export function spentLinkPage(): string {
  return page('Sign-in link already used', SCRIPT_TAG, [
    '<h1>This sign-in link has already been used</h1>',
    '<p>Each link printed by the app host opens the app once, in one browser. This one was used already, was replaced by a newer one, or is not from this host.</p>',
    FRESH_LINK,
  ]);
}

/** Where the app sends a tab that holds no secret (opened by hand, or the host's secret changed). */
export function signedOutPage(): string {
  return page('Open the sign-in link', '', [
    '<h1>Open the sign-in link printed by the app host</h1>',
    '<p>This tab is not signed in to the app host (it was opened without the link, or the host now runs with a new secret).</p>',
    FRESH_LINK,
  ]);
}

const savedSchema = z.object({ port: z.number().int().min(1).max(65535), secret: z.string().regex(/^[0-9a-f]{64}$/) });
export type SavedSession = z.output<typeof savedSchema>;

const sessionFile = (dataDir: string) => path.join(dataDir, 'browser-session.json');

/** The port and secret of the last run, if kept and readable. */
export function loadSession(dataDir: string): SavedSession | undefined {
  try {
    const r = savedSchema.safeParse(JSON.parse(readFileSync(sessionFile(dataDir), 'utf8')));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** This run's secret: the last run's when the port is the same, else a new one (kept for the next run). */
export function sessionSecret(dataDir: string, port: number, saved: SavedSession | undefined): string {
  if (saved?.port === port) return saved.secret;
  const secret = randomBytes(32).toString('hex');
  const file = sessionFile(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ port, secret }), { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return secret;
}
