/** The application menu: standard roles, DevTools only in development, the help link in the system browser. */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { HELP_URL, menuTemplate } from '../../main/menu.js';

const roles = (items: readonly MenuItemConstructorOptions[]): string[] =>
  items.flatMap((i) => [...(i.role ? [i.role] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);

describe('application menu', () => {
  it('has the standard menus, with the app menu on macOS only', () => {
    const base = { isPackaged: true, appName: 'Zulip Offline', openExternal: () => undefined };
    expect(menuTemplate({ ...base, isMac: true }).map((m) => m.role ?? m.label)).toEqual(['appMenu', 'fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
    expect(menuTemplate({ ...base, isMac: false }).map((m) => m.role ?? m.label)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it('offers DevTools only in an unpackaged build', () => {
    const base = { isMac: false, appName: 'Zulip Offline', openExternal: () => undefined };
    expect(roles(menuTemplate({ ...base, isPackaged: true }))).not.toContain('toggleDevTools');
    expect(roles(menuTemplate({ ...base, isPackaged: false }))).toContain('toggleDevTools');
    expect(roles(menuTemplate({ ...base, isPackaged: true }))).toEqual(expect.arrayContaining(['reload', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen']));
  });

  it('the help item opens the help center through the given opener', () => {
    const openExternal = vi.fn();
    const help = menuTemplate({ isMac: false, isPackaged: true, appName: 'x', openExternal }).find((m) => m.role === 'help');
    const item = Array.isArray(help?.submenu) ? help.submenu[0] : undefined;
    item?.click?.({} as never, undefined, {} as never);
    expect(openExternal).toHaveBeenCalledWith(HELP_URL);
    expect(HELP_URL).toMatch(/^https:\/\//);
  });
});
