/**
 * The one IPC handler wrapper between the page and the engine service.
 *
 * Every message is first checked for its sender: it must come from the main frame of OUR window's
 * webContents, showing our renderer URL (main/renderer-location.ts). Anything else (another
 * webContents, a subframe, a page that navigated elsewhere, a frame already gone) is refused:
 *   - IPC_INVOKE answers the contract's envelope `{ ok: false, error: { code: 'INVALID_REQUEST',
 *     message: 'refused: ...' } }` (an envelope rather than a throw, so the page always gets an
 *     RpcResult, never Electron's "Error invoking remote method" string) and logs the refusal;
 *   - IPC_SUBSCRIBE / IPC_UNSUBSCRIBE are ignored (logged).
 * Then the payload is parsed with `invokeRequestSchema`; an invalid one is answered INVALID_REQUEST.
 * Neither refusal reaches the engine. A valid `{ name, request }` goes to `client.invoke`, where the
 * service parses `request` with the operation's own schema.
 *
 * Each webContents gets its own engine client (its live views), created on first use. Events go to
 * it with `webContents.send(IPC_EVENT, event)` only while it is subscribed. When the webContents is
 * destroyed, crashes, reloads or navigates, the client is closed (its views with it); the reloaded
 * page gets a fresh one.
 */
import { ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import * as z from 'zod';
import { IPC_EVENT, IPC_INVOKE, IPC_STAGE_UPLOAD, IPC_SUBSCRIBE, IPC_UNSUBSCRIBE, invokeRequestSchema, type RpcResult } from '../sync/protocol/rpc.js';
import type { EngineEvent } from '../sync/protocol/commands.js';
import type { EngineClient } from '../sync/service/index.js';

/** A staged file arrives as bytes (structured clone of a Uint8Array), at most 256 MiB. */
const stagedBytesSchema = z.instanceof(Uint8Array).refine((b) => b.byteLength <= 256 * 1024 * 1024, 'a file may be at most 256 MiB');

export interface IpcOptions {
  readonly service: { connect(push: (e: EngineEvent) => void): EngineClient; stageUpload(bytes: Buffer): RpcResult };
  /** Our window, if open. */
  readonly window: () => BrowserWindow | undefined;
  readonly isOwnUrl: (url: string) => boolean;
  readonly log?: (line: string) => void;
}

interface Connection {
  readonly client: EngineClient;
  subscribed: boolean;
  /** Close the client and stop listening to its webContents. */
  release(): void;
}

/** Why this event's sender is not our page, or undefined when it is. */
export function senderProblem(event: IpcMainEvent | IpcMainInvokeEvent, opts: Pick<IpcOptions, 'window' | 'isOwnUrl'>): string | undefined {
  const win = opts.window();
  if (!win || win.isDestroyed()) return 'the app window is not open';
  const sender = event.sender;
  if (sender.id !== win.webContents.id) return 'the sender is not the app window';
  const frame = event.senderFrame;
  if (!frame || frame.detached) return 'the sending frame is gone';
  const main = sender.mainFrame;
  // Identity is what Electron gives for the same frame; the id comparison covers a fresh wrapper.
  const isMain = frame === main || (frame.parent === null && frame.frameTreeNodeId === main.frameTreeNodeId);
  if (!isMain) return 'the sender is a subframe';
  if (!opts.isOwnUrl(frame.url)) return `the sending page is not the app (${describeUrl(frame.url)})`;
  return undefined;
}

function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'file:' ? 'a local file' : u.origin;
  } catch {
    return 'an unparsable URL';
  }
}

export function refused(message: string): RpcResult {
  return { ok: false, error: { code: 'INVALID_REQUEST', message } };
}

/** Register the handlers; returns their removal (tests, and a clean quit). */
export function registerIpc(opts: IpcOptions): () => void {
  const log = opts.log ?? ((line: string) => console.warn(line));
  const connections = new Map<WebContents, Connection>();

  const drop = (contents: WebContents) => {
    const c = connections.get(contents);
    if (!c) return;
    connections.delete(contents);
    c.release();
  };

  const connection = (contents: WebContents): Connection => {
    const existing = connections.get(contents);
    if (existing) return existing;
    let closed = false;
    const onNavigation = (e: Electron.Event<Electron.WebContentsDidStartNavigationEventParams>) => {
      if (e.isMainFrame && !e.isSameDocument) drop(contents);
    };
    const onGone = () => drop(contents);
    const conn: Connection = {
      subscribed: false,
      client: opts.service.connect((event) => {
        if (conn.subscribed && !closed && !contents.isDestroyed()) contents.send(IPC_EVENT, event);
      }),
      release: () => {
        closed = true;
        contents.off('did-start-navigation', onNavigation);
        contents.off('render-process-gone', onGone);
        contents.off('destroyed', onGone);
        conn.client.close();
      },
    };
    connections.set(contents, conn);
    contents.on('did-start-navigation', onNavigation);
    contents.on('render-process-gone', onGone);
    contents.on('destroyed', onGone);
    return conn;
  };

  ipcMain.handle(IPC_INVOKE, async (event, payload: unknown): Promise<RpcResult> => {
    const problem = senderProblem(event, opts);
    if (problem) {
      log(`IPC invoke refused: ${problem}`);
      return refused(`refused: ${problem}`);
    }
    const parsed = invokeRequestSchema.safeParse(payload);
    if (!parsed.success) return refused(`invalid invoke payload: ${z.prettifyError(parsed.error)}`);
    return connection(event.sender).client.invoke(parsed.data.name, parsed.data.request);
  });

  // The bytes of a file the user attached (the realm's own limit is the engine's to check).
  ipcMain.handle(IPC_STAGE_UPLOAD, (event, payload: unknown): RpcResult => {
    const problem = senderProblem(event, opts);
    if (problem) {
      log(`IPC stage-upload refused: ${problem}`);
      return refused(`refused: ${problem}`);
    }
    const parsed = stagedBytesSchema.safeParse(payload);
    if (!parsed.success) return refused(`invalid file: ${z.prettifyError(parsed.error)}`);
    return opts.service.stageUpload(Buffer.from(parsed.data.buffer, parsed.data.byteOffset, parsed.data.byteLength));
  });

  const onSubscribe = (event: IpcMainEvent) => {
    const problem = senderProblem(event, opts);
    if (problem) return log(`IPC subscribe refused: ${problem}`);
    connection(event.sender).subscribed = true;
  };
  const onUnsubscribe = (event: IpcMainEvent) => {
    const problem = senderProblem(event, opts);
    if (problem) return log(`IPC unsubscribe refused: ${problem}`);
    const c = connections.get(event.sender);
    if (c) c.subscribed = false;
  };
  ipcMain.on(IPC_SUBSCRIBE, onSubscribe);
  ipcMain.on(IPC_UNSUBSCRIBE, onUnsubscribe);

  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    ipcMain.removeHandler(IPC_STAGE_UPLOAD);
    ipcMain.off(IPC_SUBSCRIBE, onSubscribe);
    ipcMain.off(IPC_UNSUBSCRIBE, onUnsubscribe);
    for (const contents of [...connections.keys()]) drop(contents);
  };
}
