/**
 * IPC_SAVE_UPLOAD: a click on a file link in a message (`/user_uploads/...`) under Electron. Only
 * our page may ask (the same sender check as every IPC); the payload is parsed with zod and must
 * name a canonical upload path. The engine fetches the file with the account's credentials (or
 * takes it from the upload cache offline), the window's progress bar shows the fetch and the
 * write, the user picks where to save it (dialog.showSaveDialog, the file's own name proposed), and
 * main writes it. Answers the envelope around `{ saved, reason }`: `unavailable` when it is not on
 * the device and the server cannot be reached (the page says "not available offline"),
 * `not_found` when the realm refuses it, `canceled` when the user closed the dialog.
 */
import { writeFile } from 'node:fs/promises';
import { dialog, ipcMain } from 'electron';
import * as z from 'zod';
import { IPC_SAVE_UPLOAD, type RpcResult } from '../sync/protocol/rpc.js';
import { canonicalUploadPath, uploadFileName } from '../sync/protocol/uploads.js';
import type { UploadAnswer } from '../sync/uploads/cache.js';
import { refused, senderProblem, type IpcOptions } from './ipc.js';

const requestSchema = z.object({ path: z.string().max(2000) }).strict();

export interface SaveUploadOptions extends Pick<IpcOptions, 'window' | 'isOwnUrl' | 'log'> {
  /** Any file of the open account's realm (the engine service's `upload(path, true)`). */
  readonly upload: (realmPath: string) => Promise<UploadAnswer>;
}

export function handleSaveUpload(opts: SaveUploadOptions): () => void {
  const log = opts.log ?? (() => undefined);
  ipcMain.handle(IPC_SAVE_UPLOAD, async (event, payload: unknown): Promise<RpcResult> => {
    const problem = senderProblem(event, opts);
    if (problem) {
      log(`IPC save-upload refused: ${problem}`);
      return refused(`refused: ${problem}`);
    }
    const parsed = requestSchema.safeParse(payload);
    const p = parsed.success ? canonicalUploadPath(parsed.data.path) : undefined;
    if (p === undefined) return refused('not an upload path of this realm');
    const win = opts.window();
    const progress = (v: number) => win && !win.isDestroyed() && win.setProgressBar(v);
    progress(2); // indeterminate while the engine fetches it
    try {
      const answer = await opts.upload(p);
      if (answer.kind === 'not_found' || answer.kind === 'unavailable') return { ok: true, value: { saved: false, reason: answer.kind } };
      progress(-1);
      const choice = win ? await dialog.showSaveDialog(win, { defaultPath: uploadFileName(p) }) : await dialog.showSaveDialog({ defaultPath: uploadFileName(p) });
      if (choice.canceled || choice.filePath === undefined || choice.filePath === '') return { ok: true, value: { saved: false, reason: 'canceled' } };
      progress(0.5);
      await writeFile(choice.filePath, answer.body);
      return { ok: true, value: { saved: true, reason: null } };
    } catch (e) {
      log(`saving an upload failed: ${String(e)}`);
      return { ok: false, error: { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) } };
    } finally {
      progress(-1);
    }
  });
  return () => ipcMain.removeHandler(IPC_SAVE_UPLOAD);
}

