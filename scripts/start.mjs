#!/usr/bin/env node
/**
 * `npm start`: build if needed, then start Electron. Where no Electron binary is installed (this
 * machine and CI cannot download one) say so in one line and fall back to the browser-mode host.
 * The browser-mode host arrives with the desktop-shell issue; until then the fallback serves the
 * built placeholder renderer on loopback behind a per-run secret.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, normalize, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'out');
const args = process.argv.slice(2);

if (!existsSync(join(out, 'main', 'index.js')) || !existsSync(join(out, 'renderer', 'index.html'))) {
  console.log('Building the app (first start)...');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function electronBinary() {
  try {
    const dir = join(createRequire(import.meta.url).resolve('electron'), '..');
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

const exe = electronBinary();
if (exe) {
  const child = spawn(exe, [root, ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('No Electron binary installed: starting the browser-mode host instead.');
  serveRenderer();
}

function serveRenderer() {
  const secret = randomBytes(16).toString('hex');
  const base = join(out, 'renderer');
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
  const server = createServer((req, res) => {
    const host = req.headers.host ?? '';
    const origin = req.headers.origin;
    const port = server.address().port;
    const allowedHost = host === `127.0.0.1:${port}` || host === `localhost:${port}`;
    const allowedOrigin = origin === undefined || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const cookieOk = (req.headers.cookie ?? '').split(/;\s*/).includes(`zs=${secret}`);
    if (!allowedHost || !allowedOrigin) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (url.searchParams.get('token') === secret) {
      res.writeHead(302, { location: '/', 'set-cookie': `zs=${secret}; HttpOnly; SameSite=Strict; Path=/` }).end();
      return;
    }
    if (!cookieOk) {
      res.writeHead(403).end('open the URL printed in the terminal');
      return;
    }
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(base, rel));
    if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff' });
    res.end(readFileSync(file));
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(`Open http://127.0.0.1:${server.address().port}/?token=${secret}`);
  });
}
