/** The window's web preferences, the CSP, and the locks every webContents and the session get. */
import type { Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { applySessionPolicy, guardWebContents, isExternalWebUrl } from '../../main/guards.js';
import { rendererLocation } from '../../main/renderer-location.js';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from '../../main/window-options.js';
import { FakeWebContents, fake, session, shell } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const own = rendererLocation({ indexFile: '/app/out/renderer/index.html', packaged: true });

function guarded() {
  const contents = new FakeWebContents();
  guardWebContents(contents as unknown as WebContents, own.isOwn);
  return contents;
}

beforeEach(() => fake.reset());

describe('window options', () => {
  it('isolate the page: context isolation, sandbox, no Node, web security, no webview', () => {
    const p = secureWebPreferences('/app/out/preload/index.cjs');
    expect(p).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });

  it('CSP: nothing by default, scripts only from the app, no inline or eval, no remote code', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|wasm-unsafe-eval|unsafe-hashes|strict-dynamic|\*|http:/);
    // No remote origin may serve scripts.
    expect(directives.get('script-src')?.some((s) => /^(https?:|data:|blob:)/.test(s))).toBe(false);
  });
});

describe('the renderer location', () => {
  it('is exactly our index.html when packaged, whatever the environment says', () => {
    const loc = rendererLocation({ indexFile: '/app/out/renderer/index.html', devUrl: 'http://localhost:5173', packaged: true });
    expect(loc.target).toEqual({ file: '/app/out/renderer/index.html' });
    expect(loc.isOwn('file:///app/out/renderer/index.html')).toBe(true);
    expect(loc.isOwn('file:///app/out/renderer/index.html#/channel/3')).toBe(true);
    expect(loc.isOwn('file:///app/out/renderer/other.html')).toBe(false);
    expect(loc.isOwn('file:///etc/passwd')).toBe(false);
    expect(loc.isOwn('http://localhost:5173/')).toBe(false);
    expect(loc.isOwn('not a url')).toBe(false);
  });

  it('is the dev server origin in development', () => {
    const loc = rendererLocation({ indexFile: '/x/index.html', devUrl: 'http://localhost:5173/', packaged: false });
    expect(loc.target).toEqual({ url: 'http://localhost:5173/' });
    expect(loc.isOwn('http://localhost:5173/src/index.tsx')).toBe(true);
    expect(loc.isOwn('http://localhost:5174/')).toBe(false);
    expect(loc.isOwn('file:///x/index.html')).toBe(false);
  });
});

describe('navigation guards', () => {
  it('lets our own page load and refuses every other navigation and redirect', () => {
    const c = guarded();
    expect(c.fire('will-navigate', { url: 'file:///app/out/renderer/index.html', isMainFrame: true })).toBe(false);
    expect(c.fire('will-navigate', { url: 'https://evil.example/', isMainFrame: true })).toBe(true);
    expect(c.fire('will-navigate', { url: 'file:///home/me/.ssh/id_rsa', isMainFrame: true })).toBe(true);
    expect(c.fire('will-redirect', { url: 'https://evil.example/' })).toBe(true);
    expect(c.fire('will-redirect', { url: 'file:///app/out/renderer/index.html' })).toBe(false);
    expect(c.fire('will-frame-navigate', { url: 'https://evil.example/', isMainFrame: false })).toBe(true);
    expect(c.fire('will-attach-webview', {})).toBe(true);
  });

  it('a link clicked away from the app opens in the system browser only when it is http(s)', () => {
    const c = guarded();
    c.fire('will-navigate', { url: 'https://zulip.com/help/', isMainFrame: true });
    c.fire('will-navigate', { url: 'file:///etc/passwd', isMainFrame: true });
    c.fire('will-navigate', { url: 'smb://share/x', isMainFrame: true });
    expect(shell.openExternal.mock.calls).toEqual([['https://zulip.com/help/']]);
  });

  it('window.open is always denied; http(s) goes to the system browser, other schemes nowhere', () => {
    const c = guarded();
    for (const url of ['https://example.com/a?b=c', 'http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'mailto:a@b.c', 'data:text/html,<script>x</script>', 'http://']) {
      expect(c.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/a?b=c'], ['http://example.com/']]);
    expect(isExternalWebUrl('HTTPS://EXAMPLE.COM')).toBe(true);
    expect(isExternalWebUrl('javascript:alert(1)//https://x')).toBe(false);
  });
});

describe('session policy', () => {
  beforeEach(() => applySessionPolicy(session.defaultSession as unknown as Session, CONTENT_SECURITY_POLICY));

  it('puts our CSP on every response, replacing any policy it carried', () => {
    const cb = vi.fn();
    fake.session.headers?.({ url: 'https://example.com/a.png', responseHeaders: { 'content-security-policy': ["default-src *"], 'Content-Type': ['image/png'] } } as never, cb as never);
    expect(cb).toHaveBeenCalledWith({ responseHeaders: { 'Content-Type': ['image/png'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    const file = vi.fn();
    fake.session.headers?.({ url: 'file:///app/out/renderer/index.html' } as never, file as never);
    expect(file).toHaveBeenCalledWith({ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });

  it('denies every permission request and check but notifications for the app\'s own page', () => {
    const own = (url: string) => url.startsWith('app://renderer/');
    applySessionPolicy(session.defaultSession as unknown as Session, CONTENT_SECURITY_POLICY, own);
    const ask = (permission: string, url: string) => {
      const answer = vi.fn();
      fake.session.permissionRequest?.({} as never, permission as never, answer as never, { requestingUrl: url } as never);
      return answer.mock.calls[0]?.[0] as boolean;
    };
    expect(ask('notifications', 'app://renderer/index.html')).toBe(true);
    expect(fake.session.permissionCheck?.({} as never, 'notifications' as never, 'app://renderer/' as never, {} as never)).toBe(true);
    expect(ask('notifications', 'https://evil.example/')).toBe(false);
    expect(fake.session.permissionCheck?.({} as never, 'notifications' as never, 'https://evil.example' as never, {} as never)).toBe(false);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'unknown']) expect(ask(permission, 'app://renderer/index.html')).toBe(false);
  });

  it('denies every permission request and check', () => {
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal', 'unknown']) {
      const answer = vi.fn();
      fake.session.permissionRequest?.({} as never, permission as never, answer as never, { requestingUrl: 'https://evil.example/' } as never);
      expect(answer).toHaveBeenCalledWith(false);
      expect(fake.session.permissionCheck?.({} as never, permission as never, 'file://' as never, {} as never)).toBe(false);
    }
    expect(fake.session.devicePermission?.({} as never)).toBe(false);
  });
});
