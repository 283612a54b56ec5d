/**
 * The application menu: standard roles only, so menus, shortcuts and their translations are the
 * platform's. DevTools are offered only in an unpackaged (development) build; the help link opens
 * in the system browser.
 */
import type { MenuItemConstructorOptions } from 'electron';

export const HELP_URL = 'https://zulip.com/help/';

export interface MenuOptions {
  readonly isMac: boolean;
  readonly isPackaged: boolean;
  readonly appName: string;
  readonly openExternal: (url: string) => void;
}

export function menuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const sep: MenuItemConstructorOptions = { type: 'separator' };
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    { role: 'forceReload' },
    ...(o.isPackaged ? [] : [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions]),
    sep,
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    sep,
    { role: 'togglefullscreen' },
  ];
  return [
    ...(o.isMac ? [{ label: o.appName, role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Zulip Help Center', click: () => o.openExternal(HELP_URL) }],
    },
  ];
}
