/**
 * Where our page lives, and the one test of "is this URL our page?" shared by the navigation guards
 * and the IPC sender check. Built app: exactly the file out/renderer/index.html (query and fragment
 * ignored, since they never change which document runs). Development (electron-vite dev): the
 * origin in ELECTRON_RENDERER_URL, honoured only in an unpackaged app so an environment variable can
 * never point a packaged app, and its IPC, at another origin.
 */
import { pathToFileURL } from 'node:url';

export interface RendererLocation {
  /** What the window loads: a file path or the dev server URL. */
  readonly target: { readonly file: string } | { readonly url: string };
  isOwn(url: string): boolean;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function rendererLocation(opts: { indexFile: string; devUrl?: string | undefined; packaged: boolean }): RendererLocation {
  const dev = !opts.packaged && opts.devUrl ? parse(opts.devUrl) : undefined;
  if (dev && (dev.protocol === 'http:' || dev.protocol === 'https:')) {
    const origin = dev.origin;
    return { target: { url: dev.href }, isOwn: (url) => parse(url)?.origin === origin };
  }
  const own = pathToFileURL(opts.indexFile);
  return {
    target: { file: opts.indexFile },
    isOwn: (url) => {
      const u = parse(url);
      // file: URLs have no host on POSIX; on Windows a UNC host would be a different file.
      return u !== undefined && u.protocol === 'file:' && u.host === own.host && u.pathname === own.pathname;
    },
  };
}
