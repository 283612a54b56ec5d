/**
 * How a page proves to the browser-mode host (host/browser/) that the printed sign-in link opened
 * it, shared by the host and the renderer. Never a cookie: cookies are not bound to ports, so every
 * other server on 127.0.0.1 the browser visits would receive it. Origins are bound to ports, so
 * the secret lives in the page origin's `sessionStorage` (put there by the link's landing page) and
 * travels only to this host: in the WebSocket's subprotocol list, and as a key derived from it (not
 * the secret) in the query of upload URLs, which an `<img>` cannot send any other way.
 */
import * as z from 'zod';

/** The `sessionStorage` item: JSON `{ secret, uploads }` (hex strings). */
export const HOST_SESSION_KEY = 'zulip-offline-host';

/** The subprotocol the host answers with; the page also offers `${HOST_WS_PROTOCOL}.${secret}`. */
export const HOST_WS_PROTOCOL = 'zulip-offline';

/**
 * The close code of a WebSocket from this host's own page whose secret the host does not know (the
 * host started again with a new one): the page stops reconnecting and says how to sign in again.
 * Other refusals (a foreign Host or Origin) stay a plain 403 handshake failure.
 */
export const HOST_WS_REFUSED = 4401;

/** Where the app sends a tab that holds no secret: the host's page saying how to get a sign-in link. */
export const SIGNED_OUT_PATH = '/signed-out';

/** The query parameter of an upload URL carrying the uploads key. */
export const UPLOAD_KEY_PARAM = 'k';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const hostSessionSchema = z.object({ secret: hex64, uploads: hex64 });
export type HostSession = z.output<typeof hostSessionSchema>;

/** The stored session, if it is one (anything else reads as none). */
export function parseHostSession(stored: string | null): HostSession | undefined {
  if (stored === null) return undefined;
  try {
    const r = hostSessionSchema.safeParse(JSON.parse(stored));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** The subprotocols a page offers when it opens the host's WebSocket. */
export const hostWsProtocols = (s: HostSession): string[] => [HOST_WS_PROTOCOL, `${HOST_WS_PROTOCOL}.${s.secret}`];

/**
 * The browser-mode host's route for files the user attaches: `POST` the bytes (with the page's
 * secret in `HOST_SECRET_HEADER` and the file's name in `X-File-Name`, percent-encoded) to copy
 * them into the account's data directory, answering the contract's envelope around `{file, size}`;
 * `GET /outbox-files/<file>?k=KEY` shows a staged image in the compose preview.
 */
export const OUTBOX_FILES_ROUTE = '/outbox-files';
export const HOST_SECRET_HEADER = 'x-zulip-offline-secret';
