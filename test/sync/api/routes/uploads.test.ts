import { describe, expect, it } from 'vitest';
import { getFileTemporaryUrl } from '../../../../sync/api/routes/uploads.js';
import { fakeServer, ok, REALM } from '../fake-transport.js';

describe('upload routes', () => {
  it('getFileTemporaryUrl GETs the file path under /api/v1 and returns the temporary url', async () => {
    const f = fakeServer();
    f.reply(ok({ url: '/user_uploads/temporary/ABCD/zulip.txt' }));
    const res = await getFileTemporaryUrl(f.conn, { url: '/user_uploads/1/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/zulip.txt' });
    const req = f.only();
    expect([req.method, req.path, req.query]).toEqual(['GET', '/user_uploads/1/4e/m2A3MSqFnWRLUf9SaPzQ0Up_/zulip.txt', {}]);
    expect(res.url).toBe('/user_uploads/temporary/ABCD/zulip.txt');
  });

  it('accepts the absolute URL under the realm and normalises percent-encoding', async () => {
    const f = fakeServer();
    f.reply(ok({ url: '/user_uploads/temporary/AB/x' }));
    await getFileTemporaryUrl(f.conn, { url: `${REALM}/user_uploads/2/ab/cd/%C3%84pfel%20(1).txt` });
    expect(f.only().path).toBe('/user_uploads/2/ab/cd/%C3%84pfel%20(1).txt');
  });

  it('refuses what is not an upload link before any request', async () => {
    const f = fakeServer();
    for (const url of ['/user_uploads/x/a.txt', 'https://elsewhere.example/user_uploads/2/a.txt', '/user_uploads/2/../../etc/passwd', '/user_uploads/2/%E0%A4%A.txt', '/avatar/2']) {
      expect(() => getFileTemporaryUrl(f.conn, { url }), url).toThrow(RangeError);
    }
    expect(f.calls).toEqual([]);
  });
});
