/** Uploading files as a demo user over REST, and waiting for an image to be decoded, for the e2e specs. */
import { expect, type Locator } from '@playwright/test';

/** Upload a file as a demo user (multipart, as clients do); its `/user_uploads/...` URL. */
export async function upload(serverUrl: string, email: string, name: string, data: Buffer, type = 'image/png'): Promise<string> {
  const key = (await (await fetch(`${serverUrl}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) })).json()) as { api_key: string };
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${serverUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}` }, body: fd });
  const body = (await res.json()) as { url?: string; msg?: string };
  if (body.url === undefined) throw new Error(`upload: ${body.msg ?? res.status}`);
  return body.url;
}

/** Decoded for real (a broken image has no natural width). */
export async function expectLoaded(img: Locator): Promise<void> {
  await expect(img).toBeVisible();
  const decoded = () =>
    img.evaluate((el) => {
      const i = el as unknown as { complete: boolean; naturalWidth: number };
      return i.complete ? i.naturalWidth : 0;
    });
  await expect.poll(decoded, { timeout: 15_000 }).toBeGreaterThan(0);
}
