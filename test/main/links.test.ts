/**
 * Links from the OS (main/links.ts, main/open-link.ts), spell check and the context menu
 * (main/spellcheck.ts), and their wiring in main/app.ts under the fake `electron`: the zulip:
 * scheme registered, a second launch's argv and macOS's open-url opening in the page over IPC_OPEN,
 * the spell-check settings applied to the session, the context menu's suggestions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp } from '../../main/app.js';
import { linkFromArgv, parseLink, realmMatches } from '../../main/links.js';
import { openLink, type LinkDeps } from '../../main/open-link.js';
import { contextMenuTemplate } from '../../main/spellcheck.js';
import type { AccountsState } from '../../sync/protocol/accounts.js';
import { openLinkSchema } from '../../sync/protocol/desktop.js';
import { IPC_DESKTOP_SETTINGS } from '../../sync/protocol/rpc.js';
import { until } from '../sync/engine/session-helpers.js';
import { app, fake, ipcMain, session } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

describe('parseLink', () => {
  it('reads zulip:// and realm links: host with port, path, a narrow fragment, the server to sign in to', () => {
    expect(parseLink('zulip://chat.example.com/#narrow/channel/3-Verona/topic/hello')).toEqual({
      host: 'chat.example.com',
      path: '/',
      hash: '#narrow/channel/3-Verona/topic/hello',
      serverUrl: 'https://chat.example.com',
    });
    expect(parseLink('zulip://127.0.0.1:9991/#narrow/dm/8-Othello')).toMatchObject({ host: '127.0.0.1:9991', hash: '#narrow/dm/8-Othello', serverUrl: 'https://127.0.0.1:9991' });
    expect(parseLink('zulip://example.org/chat/')).toEqual({ host: 'example.org', path: '/chat/', hash: null, serverUrl: 'https://example.org/chat' });
    expect(parseLink('http://127.0.0.1:9991/#narrow/channel/1-general')).toMatchObject({ host: '127.0.0.1:9991', hash: '#narrow/channel/1-general', serverUrl: 'http://127.0.0.1:9991' });
    // Any other fragment opens the realm's home view.
    expect(parseLink('https://chat.example.com/#settings/account')?.hash).toBeNull();
    expect(parseLink('https://chat.example.com/#narrow/')?.hash).toBeNull();
  });

  it('refuses other schemes, no host, credentials, a query, whitespace and overlong links', () => {
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)//#narrow/x',
      'zulip-upload://realm/user_uploads/1/a.png',
      'smb://host/share',
      'zulip:chat.example.com',
      'zulip:///#narrow/channel/1-a',
      'zulip://user:pw@chat.example.com/#narrow/channel/1-a',
      'https://chat.example.com/?next=evil#narrow/channel/1-a',
      'zulip://chat.example.com/#narrow/channel/1-a b',
      'zulip://chat.example.com/\n#narrow',
      `zulip://chat.example.com/#narrow/${'a'.repeat(2000)}`,
      'not a url',
      '',
    ]) {
      expect(parseLink(bad), bad).toBeNull();
    }
  });

  it("finds the link among a launch's switches; matches a realm by host, port and path", () => {
    expect(linkFromArgv(['/opt/zulip-offline/zulip-offline', '--allow-file-access', 'zulip://chat.example.com/#narrow/channel/3-Verona'])?.hash).toBe('#narrow/channel/3-Verona');
    expect(linkFromArgv(['electron', '.', '--sandbox'])).toBeNull();
    expect(linkFromArgv(['electron', 'file:///etc/passwd'])).toBeNull();
    const link = parseLink('zulip://chat.example.com/#narrow/channel/3-Verona')!;
    expect(realmMatches(link, 'https://chat.example.com')).toBe(true);
    expect(realmMatches(link, 'https://chat.example.com/')).toBe(true);
    expect(realmMatches(link, 'https://chat.example.com:8443')).toBe(false);
    expect(realmMatches(link, 'https://other.example.com')).toBe(false);
    expect(realmMatches(link, 'https://chat.example.com/sub')).toBe(false);
    expect(realmMatches(link, 'not a url')).toBe(false);
  });
});

describe('openLink', () => {
  const account = (id: string, realm_url: string) => ({ id, realm_url, email: 'hamlet@example.com', kind: 'server' as const });
  const deps = (state: AccountsState) => {
    const sent: unknown[] = [];
    const switched: string[] = [];
    const d: LinkDeps = {
      accounts: async () => state,
      switchAccount: async (id) => void switched.push(id),
      send: (t) => void sent.push(t),
    };
    return { d, sent, switched };
  };
  const state = (active: string | null): AccountsState => ({
    accounts: [account('a', 'https://chat.example.com'), account('b', 'http://127.0.0.1:9991')],
    active,
    secret_storage: 'encrypted',
    sandbox_available: true,
  });

  it('opens the narrow on the open account; switches to another signed-in account first; else the sign-in screen', async () => {
    const open = deps(state('a'));
    await openLink(parseLink('zulip://chat.example.com/#narrow/channel/3-Verona')!, open.d);
    expect(open.sent).toEqual([{ kind: 'narrow', hash: '#narrow/channel/3-Verona' }]);
    expect(open.switched).toEqual([]);

    const other = deps(state('a'));
    await openLink(parseLink('zulip://127.0.0.1:9991/')!, other.d);
    expect(other.switched).toEqual(['b']);
    expect(other.sent).toEqual([{ kind: 'narrow', hash: '#inbox' }]);

    const unknown = deps(state('a'));
    await openLink(parseLink('zulip://new.example.org/#narrow/channel/1-general')!, unknown.d);
    expect(unknown.sent).toEqual([{ kind: 'sign_in', server_url: 'https://new.example.org' }]);
    expect(unknown.switched).toEqual([]);
    // What main sends is what the page's schema accepts.
    for (const t of [...open.sent, ...other.sent, ...unknown.sent]) expect(openLinkSchema.safeParse(t).success).toBe(true);
  });
});

describe('the context menu', () => {
  const params = { misspelledWord: '', dictionarySuggestions: [] as string[], isEditable: false, selectionText: '', editFlags: { canCut: false, canCopy: false, canPaste: true } as Electron.EditFlags };
  const act = { replace: vi.fn(), addToDictionary: vi.fn() };
  const labels = (t: Electron.MenuItemConstructorOptions[]) => t.map((i) => i.label ?? i.type);

  it('offers the suggestions and Add to dictionary on a misspelled word, then Cut/Copy/Paste in a text field', () => {
    const t = contextMenuTemplate({ ...params, misspelledWord: 'teh', dictionarySuggestions: ['the', 'ten', 'tech'], isEditable: true, selectionText: 'teh' }, act);
    expect(labels(t)).toEqual(['the', 'ten', 'tech', 'separator', 'Add to dictionary', 'separator', 'Cut', 'Copy', 'Paste']);
    t[1]!.click!({} as never, undefined, {} as never);
    expect(act.replace).toHaveBeenCalledWith('ten');
    t[4]!.click!({} as never, undefined, {} as never);
    expect(act.addToDictionary).toHaveBeenCalledWith('teh');
    expect(t.find((i) => i.label === 'Cut')?.enabled).toBe(false);
  });

  it('says when there is no suggestion; outside a field only Copy, and only with a selection', () => {
    expect(labels(contextMenuTemplate({ ...params, misspelledWord: 'qwxz', isEditable: true }, act)).slice(0, 2)).toEqual(['No spelling suggestions', 'separator']);
    expect(labels(contextMenuTemplate({ ...params, selectionText: 'some words' }, act))).toEqual(['Copy']);
    expect(contextMenuTemplate(params, act)).toEqual([]);
  });
});

describe('links and spell check in the wired app', () => {
  let userData: string;
  beforeEach(() => {
    fake.reset();
    userData = mkdtempSync(path.join(tmpdir(), 'zo-links-'));
    app.userData = userData;
  });
  afterEach(async () => {
    app.quit();
    await until(() => app.quitting, 15_000, 'the app to quit');
    rmSync(userData, { recursive: true, force: true });
  });

  it('registers zulip:, opens links from argv, a second launch and open-url; applies spell check; pops the context menu', async () => {
    startApp(['electron', '.', 'zulip://first.example.org/#narrow/channel/1-general']);
    await new Promise((r) => setTimeout(r, 0));
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('zulip');
    const win = fake.windows[0]!;
    const opened = () => win.webContents.sent.filter((s) => s.channel === 'zulip:open').map((s) => s.payload);
    // The launch's own link waits for the page (no account here: the sign-in screen for its server).
    await new Promise((r) => setTimeout(r, 50));
    expect(opened()).toEqual([]);
    win.emit('ready-to-show');
    await until(() => opened().length === 1, 5_000, 'the launch link');
    expect(opened()[0]).toEqual({ kind: 'sign_in', server_url: 'https://first.example.org' });

    // A second launch hands its link over, and the window comes to the front.
    win.hide();
    app.emit('second-instance', {}, ['zulip-offline', 'zulip://second.example.org/#narrow/dm/8-Othello'], '/');
    expect(win.shown).toBe(true);
    await until(() => opened().length === 2, 5_000, 'the second launch link');
    expect(opened()[1]).toEqual({ kind: 'sign_in', server_url: 'https://second.example.org' });
    // macOS: open-url (prevented, as Electron asks); a link the app does not open is dropped.
    let prevented = 0;
    app.emit('open-url', { preventDefault: () => prevented++ }, 'zulip://third.example.org/');
    app.emit('open-url', { preventDefault: () => prevented++ }, 'file:///etc/passwd');
    await until(() => opened().length === 3, 5_000, 'the open-url link');
    await new Promise((r) => setTimeout(r, 20));
    expect(prevented).toBe(2);
    expect(opened()).toHaveLength(3);

    // Spell check: on at start; languages checked against the session's dictionaries.
    expect(session.defaultSession.setSpellCheckerEnabled).toHaveBeenLastCalledWith(true);
    win.webContents.mainFrame.url = `file://${path.join('/opt/zulip-offline', 'out', 'renderer', 'index.html')}`;
    const h = ipcMain.handlers.get(IPC_DESKTOP_SETTINGS)!;
    const call = (payload: unknown) => h({ sender: win.webContents, senderFrame: win.webContents.mainFrame } as never, payload as never);
    expect(await call(null)).toMatchObject({ ok: true, value: { spellcheck: true, spellcheck_languages: [], available_spellcheck_languages: ['de', 'en-US', 'fr'] } });
    expect(await call({ spellcheck_languages: ['de', 'fr'] })).toMatchObject({ ok: true, value: { spellcheck_languages: ['de', 'fr'] } });
    expect(session.defaultSession.setSpellCheckerLanguages).toHaveBeenLastCalledWith(['de', 'fr']);
    expect(await call({ spellcheck_languages: ['xx-YY'] })).toMatchObject({ ok: false, error: { message: expect.stringContaining('xx-YY') } });
    expect(await call({ spellcheck: false })).toMatchObject({ ok: true });
    expect(session.defaultSession.setSpellCheckerEnabled).toHaveBeenLastCalledWith(false);

    // A right-click on a misspelled word: the suggestions, one picked replaces it; the word added.
    win.webContents.emit('context-menu', {}, { misspelledWord: 'teh', dictionarySuggestions: ['the'], isEditable: true, selectionText: 'teh', editFlags: { canCut: true, canCopy: true, canPaste: true } });
    const menu = fake.popups[0] as Array<{ label?: string; click?: () => void }>;
    menu.find((i) => i.label === 'the')!.click!();
    expect(win.webContents.replaceMisspelling).toHaveBeenCalledWith('the');
    menu.find((i) => i.label === 'Add to dictionary')!.click!();
    expect(session.defaultSession.addWordToSpellCheckerDictionary).toHaveBeenCalledWith('teh');

    // A link while the window is closed (not to the tray) opens a window; the link waits for its page.
    expect(await call({ close_to_tray: false })).toMatchObject({ ok: true });
    win.close();
    expect(win.isDestroyed()).toBe(true);
    app.emit('open-url', { preventDefault: () => undefined }, 'zulip://fourth.example.org/');
    const again = fake.windows[1]!;
    expect(again).toBeDefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(again.webContents.sent).toEqual([]);
    again.emit('ready-to-show');
    await until(() => again.webContents.sent.some((s) => s.channel === 'zulip:open'), 5_000, 'the link in the new window');
    expect(again.webContents.sent.find((s) => s.channel === 'zulip:open')?.payload).toEqual({ kind: 'sign_in', server_url: 'https://fourth.example.org' });
  });
});
