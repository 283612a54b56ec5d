/**
 * "Another site" on loopback for the image proxy and link previews (rule 17: no test reaches an
 * outside network): a PNG, a page with OpenGraph tags, HTML served as an image would be, one over
 * any cap, one that never answers, a redirect; every request recorded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';

/** A 1×1 PNG. */
export const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export interface OtherSite {
  readonly url: string;
  readonly requests: string[];
  /** Extra answers by path (the defaults below are always there). */
  readonly routes: Map<string, { type: string; body: Buffer | string }>;
  close(): Promise<void>;
}

export function ogPage(opts: { title: string; description: string; image: string }): string {
  return `<!doctype html><html><head><title>${opts.title}</title><meta property="og:title" content="${opts.title}"><meta property="og:description" content="${opts.description}"><meta property="og:image" content="${opts.image}"></head><body>hello</body></html>`;
}

export async function startOtherSite(): Promise<OtherSite> {
  const requests: string[] = [];
  const routes = new Map<string, { type: string; body: Buffer | string }>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const r = routes.get(path);
    if (r) return void res.writeHead(200, { 'content-type': r.type }).end(r.body);
    if (path === '/cat.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL_PNG);
    if (path === '/not-an-image.png') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    if (path === '/huge.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PIXEL_PNG, deflateSync(Buffer.alloc(1)), Buffer.alloc(6 * 1024 * 1024)]));
    if (path === '/moved.png') return void res.writeHead(302, { location: '/cat.png' }).end();
    if (path === '/slow.png') return void hanging.add(res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
