/**
 * Hostile message HTML renders inert. The reference server escapes raw HTML in Markdown
 * (markdown-it with `html: false`; every Zulip extension escapes what it emits), so no user can get
 * a `<script>` into `content` through the API. To test the renderer's sanitiser on the real path
 * (host → WebSocket → bridge → store → MessageContent), this test routes the page's WebSocket and
 * swaps the content of one message for hostile HTML on its way in (`swapContentOnTheWay`), as a compromised or buggy
 * server could send it.
 */
import { demoUser, expect, messageList, openTopic, screenshot, swapContentOnTheWay, test } from './fixtures.js';

// DOMPurify parses the hostile HTML in an inert document that inherits the page's CSP, so Chromium
// logs the handlers, styles and <base> it meets there as blocked, before they are stripped. The
// assertions below check that none of them reaches the live DOM.
test.use({ sandboxAtStart: true, expectedConsoleErrors: /violates the following Content Security Policy directive/ });

const PROBE = 'XSS-PROBE';
const HOSTILE = [
  `<p>${PROBE} hostile content`,
  '<img src="data:image/png;base64,AAAA" onerror="window.__xss = 1">',
  '<script>window.__xss = 2</script>',
  '<a href="javascript:window.__xss = 3" class="js-link">js link</a>',
  '<a href="https://example.com/" onclick="window.__xss = 4" class="ok-link">a normal link</a>',
  '<span style="color: red" onmouseover="window.__xss = 5" class="hover-me">hover me</span></p>',
  '<iframe srcdoc="&lt;script&gt;parent.__xss = 6&lt;/script&gt;"></iframe>',
  '<form action="https://evil.example/"><input name="q" autofocus onfocus="window.__xss = 7"><button>go</button></form>',
  '<svg><script>window.__xss = 8</script><a xlink:href="javascript:window.__xss = 9"><text>svg</text></a></svg>',
  '<object data="javascript:window.__xss = 10"></object><embed src="javascript:window.__xss = 11">',
  '<style>body { display: none }</style><base href="https://evil.example/">',
  // MathML is let in for KaTeX: only its presentation elements, without links.
  '<math><mi href="javascript:window.__xss = 12" class="math-link">m</mi><annotation-xml encoding="text/html"><img src="x" onerror="window.__xss = 13"></annotation-xml><maction actiontype="statusline">act</maction><mglyph src="https://evil.example/x.png"></mglyph></math>',
].join('');

test.beforeEach(async ({ page }) => {
  await swapContentOnTheWay(page, (content) => (content.includes(PROBE) ? HOSTILE : content));
});

test('a message whose HTML carries scripts and handlers renders inert', async ({ app, host }, testInfo) => {
  await app.evaluate('window.__xss = 0');
  await openTopic(app, 'general', 'welcome');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const iago = await demoUser(host, 'iago@example.com');
  const id = await iago.send('general', 'welcome', `${PROBE} (replaced on the way in)`);

  const list = messageList(app);
  const msg = list.locator(`li.message[data-message-id="${id}"]`);
  await expect(msg).toContainText(`${PROBE} hostile content`);
  await expect(msg.locator('.ok-link')).toHaveAttribute('href', 'https://example.com/');
  await expect(msg.locator('.ok-link')).toHaveAttribute('target', '_blank');
  await expect(msg.locator('.ok-link')).toHaveAttribute('rel', 'noopener noreferrer');
  // The dangerous parts are gone from the DOM, not merely blocked by the CSP.
  const content = list.locator('.message-content');
  await expect(content.locator('script, iframe, form, input, button, svg, object, embed, style, base')).toHaveCount(0);
  await expect(content.locator('[style]')).toHaveCount(0);
  await expect(content.locator('math')).toHaveCount(1);
  await expect(content.locator('annotation-xml, maction, mglyph')).toHaveCount(0);
  await expect(content.locator('.math-link')).not.toHaveAttribute('href', /.*/);
  await expect(content.locator('.js-link')).not.toHaveAttribute('href', /javascript:/i);
  const handlers = await content.evaluateAll((els) => els.flatMap((el) => [el, ...el.querySelectorAll('*')]).flatMap((el) => el.getAttributeNames().filter((a: string) => a.toLowerCase().startsWith('on'))));
  expect(handlers).toEqual([]);
  await msg.locator('.hover-me').hover();
  await msg.locator('.js-link').click();
  await screenshot(app, testInfo, '08-hostile-html-inert');
  expect(await app.evaluate('window.__xss')).toBe(0);
});

test('HTML typed as Markdown shows as text', async ({ app, host }) => {
  await app.evaluate('window.__xss = 0');
  await openTopic(app, 'general', 'welcome');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const typed = '<img src=x onerror=alert(1)> and <script>window.__xss = 1</script>';
  const iago = await demoUser(host, 'iago@example.com');
  const id = await iago.send('general', 'welcome', typed);
  const msg = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(msg.locator('.message-content')).toHaveText(typed);
  await expect(msg.locator('.message-content img, .message-content script')).toHaveCount(0);
  expect(await app.evaluate('window.__xss')).toBe(0);
});
