/**
 * The IPC wrapper: only our window's main frame showing our page reaches the engine, only valid
 * `{ name, request }` payloads reach it, events go only to subscribed pages, and a page that
 * navigates, reloads or goes away loses its engine client (and its live views).
 */
import type { BrowserWindow as ElectronWindow } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerIpc } from '../../main/ipc.js';
import { IPC_EVENT, IPC_INVOKE, IPC_STAGE_UPLOAD, IPC_SUBSCRIBE, IPC_UNSUBSCRIBE, type RpcResult } from '../../sync/protocol/rpc.js';
import type { EngineEvent } from '../../sync/protocol/commands.js';
import { BrowserWindow, FakeFrame, FakeWebContents, fake, ipcMain } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const OWN = 'file:///app/out/renderer/index.html';
const isOwnUrl = (url: string) => url.split('#')[0] === OWN;

/** A service double: records what reaches it and lets the test push events to each client. */
function fakeService() {
  const invoked: Array<{ name: string; payload: unknown }> = [];
  const clients: Array<{ push: (e: EngineEvent) => void; closed: boolean }> = [];
  return {
    invoked,
    clients,
    connect: vi.fn((push: (e: EngineEvent) => void) => {
      const c = { push, closed: false };
      clients.push(c);
      return {
        invoke: async (name: string, payload: unknown): Promise<RpcResult> => {
          invoked.push({ name, payload });
          return { ok: true, value: { echoed: name } };
        },
        close: () => void (c.closed = true),
      };
    }),
    staged: [] as Buffer[],
    stageUpload(bytes: Buffer): RpcResult {
      this.staged.push(bytes);
      return { ok: true, value: { file: 'f'.repeat(32), size: bytes.length } };
    },
  };
}

let win: BrowserWindow;
let service: ReturnType<typeof fakeService>;
let dispose: () => void;
const logs: string[] = [];

beforeEach(async () => {
  fake.reset();
  logs.length = 0;
  win = new BrowserWindow({});
  await win.loadFile('/app/out/renderer/index.html');
  service = fakeService();
  dispose = registerIpc({ service, window: () => win as unknown as ElectronWindow, isOwnUrl, log: (l) => logs.push(l) });
});
afterEach(() => dispose());

type Sender = { sender: FakeWebContents; senderFrame: FakeFrame | null };
const fromPage = (): Sender => ({ sender: win.webContents, senderFrame: win.webContents.mainFrame });

function invoke(event: Sender, payload: unknown): Promise<RpcResult> {
  const h = ipcMain.handlers.get(IPC_INVOKE);
  if (!h) throw new Error('no invoke handler');
  return Promise.resolve(h(event as never, payload as never)) as Promise<RpcResult>;
}

const refusedWith = (text: RegExp) => ({ ok: false, error: { code: 'INVALID_REQUEST', message: expect.stringMatching(text) } });

describe('IPC invoke: the sender check', () => {
  it('passes a valid payload from our page to the engine client', async () => {
    expect(await invoke(fromPage(), { name: 'channels', request: {} })).toEqual({ ok: true, value: { echoed: 'channels' } });
    expect(service.invoked).toEqual([{ name: 'channels', payload: {} }]);
  });

  it('refuses another webContents, even one showing our URL', async () => {
    const other = new FakeWebContents(OWN);
    expect(await invoke({ sender: other, senderFrame: other.mainFrame }, { name: 'channels', request: {} })).toEqual(refusedWith(/^refused: the sender is not the app window/));
    expect(service.invoked).toEqual([]);
    expect(service.connect).not.toHaveBeenCalled();
    expect(logs[0]).toMatch(/refused/);
  });

  it('refuses a subframe of our window', async () => {
    const sub = new FakeFrame(OWN, win.webContents.mainFrame);
    expect(await invoke({ sender: win.webContents, senderFrame: sub }, { name: 'channels', request: {} })).toEqual(refusedWith(/subframe/));
    expect(service.invoked).toEqual([]);
  });

  it('refuses our window once it shows a foreign page', async () => {
    win.webContents.mainFrame.url = 'https://evil.example/page';
    expect(await invoke(fromPage(), { name: 'signOut', request: { id: 'x' } })).toEqual(refusedWith(/not the app \(https:\/\/evil\.example\)/));
    win.webContents.mainFrame.url = 'file:///tmp/downloaded.html';
    expect(await invoke(fromPage(), { name: 'channels', request: {} })).toEqual(refusedWith(/not the app \(a local file\)/));
    expect(service.invoked).toEqual([]);
  });

  it('refuses a frame that is gone, and anything once the window is closed', async () => {
    expect(await invoke({ sender: win.webContents, senderFrame: null }, { name: 'channels', request: {} })).toEqual(refusedWith(/frame is gone/));
    const detached = new FakeFrame(OWN);
    detached.detached = true;
    expect(await invoke({ sender: win.webContents, senderFrame: detached }, { name: 'channels', request: {} })).toEqual(refusedWith(/frame is gone/));
    const page = fromPage();
    win.close();
    expect(await invoke(page, { name: 'channels', request: {} })).toEqual(refusedWith(/window is not open/));
    expect(service.invoked).toEqual([]);
  });
});

describe('IPC invoke: the payload', () => {
  it('rejects payloads that are not { name, request } without reaching the engine', async () => {
    for (const bad of [undefined, null, 'channels', 42, [], {}, { name: '' }, { name: 7, request: {} }, { name: 'x'.repeat(101), request: {} }]) {
      expect(await invoke(fromPage(), bad)).toEqual(refusedWith(/^invalid invoke payload/));
    }
    expect(service.invoked).toEqual([]);
  });

  it('hands name and request over untouched: the service parses the operation schema', async () => {
    await invoke(fromPage(), { name: 'openNarrow', request: { narrow: [], extra: 1 } });
    await invoke(fromPage(), { name: 'nope', request: undefined });
    expect(service.invoked).toEqual([
      { name: 'openNarrow', payload: { narrow: [], extra: 1 } },
      { name: 'nope', payload: undefined },
    ]);
    expect(service.connect).toHaveBeenCalledTimes(1); // one client per page
  });
});

describe('IPC events', () => {
  const status: EngineEvent = { type: 'status', status: { state: 'live' } };

  it('reach the page only while it is subscribed', async () => {
    await invoke(fromPage(), { name: 'status', request: {} });
    service.clients[0]?.push(status);
    expect(win.webContents.sent).toEqual([]);
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    service.clients[0]?.push(status);
    expect(win.webContents.sent).toEqual([{ channel: IPC_EVENT, payload: status }]);
    ipcMain.emit(IPC_UNSUBSCRIBE, fromPage());
    service.clients[0]?.push(status);
    expect(win.webContents.sent).toHaveLength(1);
  });

  it('a foreign sender cannot subscribe', () => {
    const other = new FakeWebContents(OWN);
    ipcMain.emit(IPC_SUBSCRIBE, { sender: other, senderFrame: other.mainFrame });
    ipcMain.emit(IPC_SUBSCRIBE, { sender: win.webContents, senderFrame: new FakeFrame(OWN, win.webContents.mainFrame) });
    expect(service.connect).not.toHaveBeenCalled();
    expect(logs).toHaveLength(2);
  });

  it('a reload or navigation closes the page client; in-page navigation does not', () => {
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    win.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true, url: `${OWN}#/x` });
    win.webContents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false, url: 'about:blank' });
    expect(service.clients[0]?.closed).toBe(false);
    win.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, url: OWN });
    expect(service.clients[0]?.closed).toBe(true);
    // The reloaded page starts unsubscribed with a fresh client.
    service.clients[0]?.push({ type: 'areas', areas: ['unread'] });
    expect(win.webContents.sent).toEqual([]);
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    expect(service.clients).toHaveLength(2);
    expect(win.webContents.listenerCount('did-start-navigation')).toBe(1);
  });

  it('a destroyed or crashed page loses its client', () => {
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    win.webContents.emit('render-process-gone', {}, { reason: 'crashed' });
    expect(service.clients[0]?.closed).toBe(true);
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    win.close();
    expect(service.clients[1]?.closed).toBe(true);
  });

  it('disposing removes the handlers and closes every client', () => {
    ipcMain.emit(IPC_SUBSCRIBE, fromPage());
    dispose();
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(false);
    expect(ipcMain.listenerCount(IPC_SUBSCRIBE)).toBe(0);
    expect(service.clients[0]?.closed).toBe(true);
    dispose = () => undefined;
  });
});

describe('IPC stage-upload: a file the user attached', () => {
  const stage = (event: Sender, payload: unknown): Promise<RpcResult> => {
    const h = ipcMain.handlers.get(IPC_STAGE_UPLOAD);
    if (!h) throw new Error('no stage-upload handler');
    return Promise.resolve(h(event as never, payload as never)) as Promise<RpcResult>;
  };

  it('hands the bytes of our page to the engine; refuses another sender and anything but bytes', async () => {
    expect(await stage(fromPage(), new Uint8Array([1, 2, 3]))).toEqual({ ok: true, value: { file: 'f'.repeat(32), size: 3 } });
    expect(service.staged.map((b) => [...b])).toEqual([[1, 2, 3]]);
    const other = new FakeWebContents(OWN);
    expect(await stage({ sender: other, senderFrame: other.mainFrame }, new Uint8Array([1]))).toEqual(refusedWith(/^refused: the sender is not the app window/));
    expect(await stage(fromPage(), 'not bytes')).toEqual(refusedWith(/^invalid file/));
    expect(service.staged).toHaveLength(1);
  });
});
