/**
 * The `zulip-upload:` scheme (main/uploads.ts) under the fake `electron`: registered privileged
 * without a CSP bypass, answering from the upload cache's answers (image, 204 when unavailable
 * offline, 404 for anything not a canonical upload path, however it is written), refusing other
 * methods and requests web content of another origin made; and main/app.ts wiring it to the engine
 * service, with the CSP naming the scheme and no remote image source.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerUpload, handleUploads, initiatorAllowed, registerUploadScheme } from '../../main/uploads.js';
import { CONTENT_SECURITY_POLICY } from '../../main/window-options.js';
import type { UploadAnswer } from '../../sync/uploads/cache.js';
import { fake } from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

/** A cache that has one image, knows one missing one is unreachable, and records what it was asked. */
function fakeCache() {
  const asked: string[] = [];
  const upload = vi.fn(async (p: string): Promise<UploadAnswer> => {
    asked.push(p);
    if (p === '/user_uploads/2/ab/pic.png') return { kind: 'image', contentType: 'image/png', body: PNG, cached: true };
    if (p === '/user_uploads/2/ab/away.png') return { kind: 'unavailable', reason: 'offline' };
    return { kind: 'not_found', reason: 'no such upload' };
  });
  return { upload, asked };
}

/** A request as Electron passes it: the URL exactly as given (no dot segments resolved), its method, maybe an initiator. */
const req = (url: string, method = 'GET', initiatorOrigin?: string) => ({ url, method, initiatorOrigin }) as unknown as Request;

beforeEach(() => fake.reset());
afterEach(() => vi.restoreAllMocks());

describe('the zulip-upload: scheme', () => {
  it('is registered standard, secure and streaming (inline videos), without bypassing the CSP, fetch, CORS or service workers', () => {
    registerUploadScheme();
    expect(fake.protocol.privileged).toEqual([
      { scheme: 'zulip-upload', privileges: { standard: true, secure: true, bypassCSP: false, supportFetchAPI: false, corsEnabled: false, allowServiceWorkers: false, stream: true } },
    ]);
  });

  it('serves the cached image with its type, nosniff and no-store; HEAD without a body', async () => {
    const c = fakeCache();
    const r = await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png'), c);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await r.arrayBuffer()).equals(PNG)).toBe(true);
    const head = await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png', 'HEAD'), c);
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('shows an image the user attached from its staged copy; a staged non-image or an unknown id is 404', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]);
    const kept: Record<string, Buffer> = { ['a'.repeat(32)]: png, ['b'.repeat(32)]: Buffer.from('%PDF-1.4') };
    const opts = { ...fakeCache(), staged: async (id: string) => kept[id] };
    const r = await answerUpload(req(`zulip-upload://realm/outbox-files/${'a'.repeat(32)}`), opts);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true);
    expect((await answerUpload(req(`zulip-upload://realm/outbox-files/${'b'.repeat(32)}`), opts)).status).toBe(404);
    expect((await answerUpload(req(`zulip-upload://realm/outbox-files/${'c'.repeat(32)}`), opts)).status).toBe(404);
    expect((await answerUpload(req('zulip-upload://realm/outbox-files/../api-keys.json'), opts)).status).toBe(404);
    expect(opts.asked).toEqual([]);
  });

  it('204 (a quiet failure) when the image is not on the device and the realm is unreachable', async () => {
    const r = await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/away.png'), fakeCache());
    expect(r.status).toBe(204);
    expect((await r.arrayBuffer()).byteLength).toBe(0);
  });

  it('404 for unknown uploads, other hosts and paths, and traversal, without asking the cache for non-canonical paths', async () => {
    const c = fakeCache();
    expect((await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/none.png'), c)).status).toBe(404);
    for (const url of [
      'zulip-upload://other/user_uploads/2/ab/pic.png',
      'zulip-upload://realm/api/v1/users',
      'zulip-upload://realm/user_uploads/2/../../../etc/passwd',
      'zulip-upload://realm/user_uploads/2/%2e%2e/%2e%2e/etc/passwd',
      'zulip-upload://realm/user_uploads/2/a%2F..%2Fb.png',
      'zulip-upload://realm/user_uploads/temporary/t/x.png',
      'file:///etc/passwd',
    ]) {
      expect((await answerUpload(req(url), c)).status, url).toBe(404);
    }
    expect(c.asked).toEqual(['/user_uploads/2/ab/none.png']);
  });

  it('refuses other methods and web content of another origin', async () => {
    const c = fakeCache();
    expect((await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png', 'POST'), c)).status).toBe(405);
    expect((await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png', 'GET', 'https://evil.example'), c)).status).toBe(403);
    expect((await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png', 'GET', 'file://'), c)).status).toBe(200);
    expect((await answerUpload(req('zulip-upload://realm/user_uploads/2/ab/pic.png', 'GET', 'http://localhost:5173'), { ...c, devOrigin: 'http://localhost:5173' })).status).toBe(200);
    expect(initiatorAllowed('http://localhost:5173', undefined)).toBe(false);
    expect(initiatorAllowed('null', undefined)).toBe(true);
    expect(initiatorAllowed(undefined, undefined)).toBe(true);
  });

  it('handleUploads installs the handler on the session and the undo removes it; a failing cache is a 500, not a crash', async () => {
    const undo = handleUploads({ upload: async () => Promise.reject(new Error('disk gone')) });
    const h = fake.protocol.handlers.get('zulip-upload');
    expect(h).toBeTypeOf('function');
    const r = await h!(req('zulip-upload://realm/user_uploads/2/ab/pic.png'));
    expect(r.status).toBe(500);
    undo();
    expect(fake.protocol.handlers.has('zulip-upload')).toBe(false);
  });

  it('the CSP shows images and plays videos only from the app and this scheme', () => {
    const directive = (name: string) => CONTENT_SECURITY_POLICY.split(/;\s*/).find((d) => d.startsWith(`${name} `));
    expect(directive('img-src')).toBe("img-src 'self' zulip-upload:");
    expect(directive('media-src')).toBe("media-src 'self' zulip-upload:");
  });
});
