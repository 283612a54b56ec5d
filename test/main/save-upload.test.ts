/**
 * A file link clicked under Electron (main/save-upload.ts): only our page may ask, only a canonical
 * upload path reaches the engine; the engine's file is written where the save dialog says (the
 * file's own name proposed), with the window's progress bar shown meanwhile; offline a file not on
 * the device is `unavailable` and no dialog opens; a canceled dialog writes nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserWindow as ElectronWindow } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleSaveUpload } from '../../main/save-upload.js';
import { IPC_SAVE_UPLOAD, type RpcResult } from '../../sync/protocol/rpc.js';
import type { UploadAnswer } from '../../sync/uploads/cache.js';
import { BrowserWindow, dialog, fake, FakeFrame, ipcMain } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const OWN = 'file:///app/out/renderer/index.html';
const PDF = Buffer.from('%PDF-1.4 plan');
let win: BrowserWindow;
let dir: string;
let dispose: () => void;
const asked: string[] = [];
const upload = async (p: string): Promise<UploadAnswer> => {
  asked.push(p);
  return p.endsWith('/plan.pdf') ? { kind: 'file', contentType: 'application/pdf', body: PDF, cached: false } : { kind: 'unavailable', reason: 'offline' };
};

beforeEach(async () => {
  fake.reset();
  asked.length = 0;
  dir = mkdtempSync(path.join(tmpdir(), 'save-upload-'));
  win = new BrowserWindow({});
  await win.loadFile('/app/out/renderer/index.html');
  dispose = handleSaveUpload({ upload, window: () => win as unknown as ElectronWindow, isOwnUrl: (u) => u === OWN });
});
afterEach(() => {
  dispose();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (payload: unknown, frame: FakeFrame | null = win.webContents.mainFrame) => ipcMain.handlers.get(IPC_SAVE_UPLOAD)!({ sender: win.webContents, senderFrame: frame } as never, payload as never) as Promise<RpcResult>;

describe('IPC_SAVE_UPLOAD', () => {
  it('saves the engine’s file where the user says, its own name proposed, the progress bar shown meanwhile', async () => {
    fake.saveAs = path.join(dir, 'chosen.pdf');
    expect(await ask({ path: '/user_uploads/2/ab/plan.pdf' })).toEqual({ ok: true, value: { saved: true, reason: null } });
    expect(readFileSync(fake.saveAs).equals(PDF)).toBe(true);
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(win, { defaultPath: 'plan.pdf' });
    expect(win.progress[0]).toBeGreaterThan(1);
    expect(win.progress.at(-1)).toBe(-1);
  });

  it('canceled: nothing written; offline and not kept: unavailable, and no dialog', async () => {
    expect(await ask({ path: '/user_uploads/2/ab/plan.pdf' })).toEqual({ ok: true, value: { saved: false, reason: 'canceled' } });
    dialog.showSaveDialog.mockClear();
    expect(await ask({ path: '/user_uploads/2/ab/agenda.pdf' })).toEqual({ ok: true, value: { saved: false, reason: 'unavailable' } });
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
  });

  it('refuses other senders and anything but a canonical upload path before the engine is asked', async () => {
    const sub = new FakeFrame(OWN, win.webContents.mainFrame);
    expect(await ask({ path: '/user_uploads/2/ab/plan.pdf' }, sub)).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    for (const bad of [{ path: '/user_uploads/2/../../etc/passwd' }, { path: '/api/v1/users' }, { path: 5 }, '/user_uploads/2/ab/plan.pdf', { path: '/user_uploads/2/ab/plan.pdf', extra: 1 }]) {
      expect(await ask(bad)).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    }
    expect(asked).toEqual([]);
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
  });
});
