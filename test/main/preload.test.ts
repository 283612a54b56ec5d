/**
 * The preload exposes exactly `host`, `invoke`, `subscribe`, `unsubscribe` on `window.zulip`, over
 * the protocol's four channels (duplicated in main/ipc-channels.ts to keep zod out of the bundle),
 * and never hands the page ipcRenderer or the IPC event object.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../main/ipc-channels.js';
import { IPC_DESKTOP_SETTINGS, IPC_EVENT, IPC_INVOKE, IPC_OPEN, IPC_SAVE_UPLOAD, IPC_STAGE_UPLOAD, IPC_SUBSCRIBE, IPC_UNSUBSCRIBE, IPC_UPDATE, IPC_UPDATE_STATUS } from '../../sync/protocol/rpc.js';
import { contextBridge, fake, ipcRenderer } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

interface ZulipApi {
  host: string;
  invoke(name: string, request: unknown): Promise<unknown>;
  subscribe(listener: (e: unknown) => void): number;
  unsubscribe(id: number): void;
}
let zulip: ZulipApi;

beforeAll(async () => {
  fake.reset();
  await import('../../main/preload.js');
  zulip = fake.exposed.zulip as ZulipApi;
});
beforeEach(() => {
  ipcRenderer.invoke.mockClear();
  ipcRenderer.send.mockClear();
});

describe('preload', () => {
  it('uses the protocol channel names', () => {
    expect(CHANNELS).toEqual({ invoke: IPC_INVOKE, event: IPC_EVENT, subscribe: IPC_SUBSCRIBE, unsubscribe: IPC_UNSUBSCRIBE, stageUpload: IPC_STAGE_UPLOAD, saveUpload: IPC_SAVE_UPLOAD, desktopSettings: IPC_DESKTOP_SETTINGS, open: IPC_OPEN, update: IPC_UPDATE, updateStatus: IPC_UPDATE_STATUS });
  });

  it('exposes exactly host, invoke, subscribe and unsubscribe on window.zulip, frozen', () => {
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(contextBridge.exposeInMainWorld.mock.calls[0]?.[0]).toBe('zulip');
    expect(Object.keys(zulip).sort()).toEqual(['desktopSettings', 'host', 'invoke', 'onOpen', 'onUpdateStatus', 'saveUpload', 'stageUpload', 'subscribe', 'unsubscribe', 'update']);
    expect(zulip.host).toBe('electron');
    expect(Object.isFrozen(zulip)).toBe(true);
    expect(Object.values(zulip)).not.toContain(ipcRenderer);
  });

  it('invoke sends { name, request } on the invoke channel and returns the answer', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: [1] });
    expect(await zulip.invoke('channels', { a: 1 })).toEqual({ ok: true, value: [1] });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(IPC_INVOKE, { name: 'channels', request: { a: 1 } });
  });

  it('one IPC listener fans events out; subscribe/unsubscribe are sent on the first and last', () => {
    expect(ipcRenderer.listenerCount(IPC_EVENT)).toBe(1);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const ida = zulip.subscribe((e) => a.push(e));
    const idb = zulip.subscribe((e) => b.push(e));
    expect(ipcRenderer.send.mock.calls).toEqual([[IPC_SUBSCRIBE]]);
    const ipcEvent = { sender: ipcRenderer, ports: [] };
    ipcRenderer.emit(IPC_EVENT, ipcEvent, { type: 'areas', areas: ['unread'] });
    // Listeners get the payload only, never the IPC event (it carries `sender`: ipcRenderer).
    expect(a).toEqual([{ type: 'areas', areas: ['unread'] }]);
    expect(b).toEqual(a);
    zulip.unsubscribe(ida);
    zulip.unsubscribe(ida); // twice is harmless
    expect(ipcRenderer.send.mock.calls).toEqual([[IPC_SUBSCRIBE]]);
    ipcRenderer.emit(IPC_EVENT, ipcEvent, { type: 'status', status: { state: 'live' } });
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(2);
    zulip.unsubscribe(idb);
    expect(ipcRenderer.send.mock.calls).toEqual([[IPC_SUBSCRIBE], [IPC_UNSUBSCRIBE]]);
    expect(ipcRenderer.listenerCount(IPC_EVENT)).toBe(1);
  });

  it('a throwing listener does not starve the others', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const got: unknown[] = [];
    const bad = zulip.subscribe(() => {
      throw new Error('boom');
    });
    const good = zulip.subscribe((e) => got.push(e));
    ipcRenderer.emit(IPC_EVENT, {}, { type: 'areas', areas: [] });
    expect(got).toHaveLength(1);
    expect(spy).toHaveBeenCalled();
    zulip.unsubscribe(bad);
    zulip.unsubscribe(good);
    spy.mockRestore();
  });

  it('desktopSettings reads (null) or patches the app settings; onOpen hears the payload only', async () => {
    const api = zulip as unknown as { desktopSettings(p?: unknown): Promise<unknown>; onOpen(l: (t: unknown) => void): void };
    await api.desktopSettings();
    await api.desktopSettings({ close_to_tray: false });
    expect(ipcRenderer.invoke.mock.calls).toEqual([
      [IPC_DESKTOP_SETTINGS, null],
      [IPC_DESKTOP_SETTINGS, { close_to_tray: false }],
    ]);
    const opened: unknown[] = [];
    api.onOpen((t) => opened.push(t));
    ipcRenderer.emit(IPC_OPEN, { sender: ipcRenderer }, { kind: 'inbox' });
    expect(opened).toEqual([{ kind: 'inbox' }]);
  });

  it('update asks the updater ({ action }); onUpdateStatus hears the state only', async () => {
    const api = zulip as unknown as { update(a: string): Promise<unknown>; onUpdateStatus(l: (s: unknown) => void): void };
    await api.update('check');
    expect(ipcRenderer.invoke.mock.calls).toEqual([[IPC_UPDATE, { action: 'check' }]]);
    const heard: unknown[] = [];
    api.onUpdateStatus((s) => heard.push(s));
    ipcRenderer.emit(IPC_UPDATE_STATUS, { sender: ipcRenderer }, { state: 'checking', current_version: '0.1.0' });
    expect(heard).toEqual([{ state: 'checking', current_version: '0.1.0' }]);
  });

  it('refuses a listener that is not a function', () => {
    expect(() => zulip.subscribe('x' as never)).toThrow(TypeError);
  });
});
