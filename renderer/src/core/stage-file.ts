/**
 * The bytes of a file the user attaches, to the engine (which copies them into the account's data
 * directory before the upload is queued): never in a contract frame (frames are small). Under
 * Electron through the preload's `stageUpload` (IPC, validated by main); in the browser-mode host
 * by `POST /outbox-files` on the page's own origin with the tab's secret in a header. Answers the
 * staged copy's id and size, or throws a `BridgeError` with the engine's words (a file over the
 * organization's limit, no account open).
 */
import * as z from 'zod';
import { HOST_SECRET_HEADER, OUTBOX_FILES_ROUTE } from '../../../sync/protocol/browser-host.js';
import { rpcResultSchema } from '../../../sync/protocol/rpc.js';
import { UPLOAD_SCHEME, UPLOAD_SCHEME_HOST } from '../../../sync/protocol/uploads.js';
import { BridgeError } from './bridge-error.js';
import { hostSession } from './host-session.js';

const stagedSchema = z.object({ file: z.string().regex(/^[0-9a-f]{32}$/), size: z.number().int().nonnegative() });
export type Staged = z.output<typeof stagedSchema>;

export async function stageFile(file: Blob): Promise<Staged> {
  let raw: unknown;
  const api = window.zulip;
  if (api?.stageUpload) raw = await api.stageUpload(new Uint8Array(await file.arrayBuffer()));
  else {
    let res: Response;
    try {
      res = await fetch(OUTBOX_FILES_ROUTE, { method: 'POST', headers: { [HOST_SECRET_HEADER]: hostSession()?.secret ?? '', 'content-type': 'application/octet-stream' }, body: file });
    } catch {
      throw new BridgeError('OFFLINE', 'the app’s host cannot be reached');
    }
    if (!res.ok) throw new BridgeError('INVALID_REQUEST', `the app’s host refused the file (HTTP ${res.status})`);
    raw = await res.json();
  }
  const r = rpcResultSchema.safeParse(raw);
  if (!r.success) throw new BridgeError('INTERNAL', 'the host answered outside the contract');
  if (!r.data.ok) throw new BridgeError(r.data.error.code, r.data.error.message, r.data.error.details);
  const staged = stagedSchema.safeParse(r.data.value);
  if (!staged.success) throw new BridgeError('INTERNAL', 'the host answered outside the contract');
  return staged.data;
}

/** Where the page shows a staged image from: Electron's upload scheme, or the browser host's route with the tab's key. */
export function stagedImageSrc(file: string): string | undefined {
  if (window.zulip?.stageUpload) return `${UPLOAD_SCHEME}://${UPLOAD_SCHEME_HOST}${OUTBOX_FILES_ROUTE}/${file}`;
  const key = hostSession()?.uploads;
  return key === undefined ? undefined : `${OUTBOX_FILES_ROUTE}/${file}?k=${key}`;
}
