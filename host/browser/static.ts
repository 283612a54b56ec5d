/**
 * The built renderer, served read-only from one directory. A path that leaves it (`..`, encoded
 * slashes, a symlink pointing out) is answered 404 like any missing file, so nothing outside the
 * bundle can be read or even probed for.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file under `root` that `pathname` names, or undefined when it names nothing servable. */
export async function resolveStatic(root: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = path.resolve(root);
  const file = path.resolve(base, rel);
  const inside = (p: string, dir: string) => {
    const r = path.relative(dir, p);
    return r !== '' && !r.startsWith('..') && !path.isAbsolute(r);
  };
  if (!inside(file, base)) return undefined;
  try {
    // Symlinks are followed only if they stay inside the bundle.
    const [realFile, realBase] = await Promise.all([realpath(file), realpath(base)]);
    if (!inside(realFile, realBase)) return undefined;
    return (await stat(realFile)).isFile() ? realFile : undefined;
  } catch {
    return undefined;
  }
}

export async function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, pathname: string, headers: Record<string, string>): Promise<void> {
  const file = await resolveStatic(root, pathname);
  if (file === undefined) {
    res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  const body = await readFile(file);
  const ext = path.extname(file).toLowerCase();
  res.writeHead(200, {
    ...headers,
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'content-length': String(body.length),
    // The page carries nothing worth caching across runs; the bundle is hashed and may be cached.
    'cache-control': ext === '.html' ? 'no-store' : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
