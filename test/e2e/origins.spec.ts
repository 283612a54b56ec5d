/**
 * The shared fixture's check that the page asks no other origin than the host's (foreignRequests in
 * fixtures.ts, run for every test through the `app` fixture), on a bare page: an image of another
 * origin is caught, `data:` and the page's own origin are not.
 */
import { expect, foreignRequests, test } from './fixtures.js';

test('a request to another origin is caught, data: and same-origin ones are not', async ({ page }) => {
  const foreign = foreignRequests(page, 'http://127.0.0.1:9');
  await page.setContent('<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img alt="" src="http://127.0.0.1:9/own.png"><img alt="" src="http://127.0.0.2:9/other.png">');
  await expect.poll(() => foreign).toEqual(['http://127.0.0.2:9/other.png']);
});
