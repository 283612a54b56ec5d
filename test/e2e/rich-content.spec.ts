/**
 * Zulip's rich message HTML (issue #21): spoilers, Pygments-highlighted code, KaTeX math. The
 * spoilers are written in Markdown and rendered by the sandbox server, as a user posts them. The
 * sandbox has no Pygments or KaTeX, so the code and math messages are posted with a marker and
 * their content swapped on the way in for the HTML a real Zulip server sends (Zulip's own test
 * fixtures, below). Each case checks what the sanitiser keeps in the DOM and how it shows, by
 * keyboard where it is a control; screenshots light and dark (102-rich-content*).
 */
import type { Locator } from '@playwright/test';
import { demoUser, expect, lightAndDark, messageList, openTopic, screenshot, swapContentOnTheWay, test } from './fixtures.js';
import { openRealWorld, statusOf } from './real-world.js';

test.use({ sandboxAtStart: true });

// The page's own, inside evaluate (the tests' TypeScript has no DOM library).
declare const getComputedStyle: (el: unknown, pseudo?: string) => { color: string; content: string };

// `expected_output` of the named cases in zulip/zulip zerver/tests/fixtures/markdown_test_cases.json.
const CODEBLOCK_HILITE_PYTHON =
  '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>';
const TEX_FENCED_MATH =
  '<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><msup><mi>a</mi><mn>2</mn></msup><mo>=</mo><msup><mi>b</mi><mn>2</mn></msup><mo>+</mo><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">a^2 = b^2 + c^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.8641em;"></span><span class="mord"><span class="mord mathnormal">a</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.9474em;vertical-align:-0.0833em;"></span><span class="mord"><span class="mord mathnormal">b</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">+</span><span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.8641em;"></span><span class="mord"><span class="mord mathnormal">c</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span></span></span></span></span></p>';
const TEX_INLINE =
  '<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mn>1</mn><mo>⊕</mo><mn>0</mn><mo>=</mo><mn>1</mn></mrow><annotation encoding="application/x-tex">1 \\oplus 0 = 1</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span><span class="mord">1</span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">⊕</span><span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">0</span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">1</span></span></span></span></p>';
// The fixtures have no fraction: `$$\frac{1}{2}$$` as KaTeX 0.16 renders it (katex.renderToString, HTML and MathML).
const TEX_FRACTION =
  '<p>Half: <span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mfrac><mn>1</mn><mn>2</mn></mfrac></mrow><annotation encoding="application/x-tex">\\frac{1}{2}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:1.1901em;vertical-align:-0.345em;"></span><span class="mord"><span class="mopen nulldelimiter"></span><span class="mfrac"><span class="vlist-t vlist-t2"><span class="vlist-r"><span class="vlist" style="height:0.8451em;"><span style="top:-2.655em;"><span class="pstrut" style="height:3em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight"><span class="mord mtight">2</span></span></span></span><span style="top:-3.23em;"><span class="pstrut" style="height:3em;"></span><span class="frac-line" style="border-bottom-width:0.04em;"></span></span><span style="top:-3.394em;"><span class="pstrut" style="height:3em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight"><span class="mord mtight">1</span></span></span></span></span><span class="vlist-s">​</span></span><span class="vlist-r"><span class="vlist" style="height:0.345em;"><span></span></span></span></span></span><span class="mclose nulldelimiter"></span></span></span></span></span></p>';

const SWAPS: Record<string, string> = {
  'RICH-CODE': CODEBLOCK_HILITE_PYTHON,
  'RICH-MATH': `${TEX_FENCED_MATH}\n${TEX_INLINE}\n${TEX_FRACTION}`,
};

test.beforeEach(async ({ page }) => {
  await swapContentOnTheWay(page, (content) => Object.entries(SWAPS).find(([marker]) => content.includes(marker))?.[1] ?? content);
});

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (b === null) throw new Error('not laid out');
  return b;
};
const colour = (l: Locator, pseudo?: string) => l.evaluate((el, p) => getComputedStyle(el, p).color, pseudo);

test('spoilers open by keyboard, code is coloured, math is drawn by KaTeX', async ({ app, host }, testInfo) => {
  const iago = await demoUser(host, 'iago@example.com');
  const topic = 'rich content';
  const spoilerId = await iago.send('general', topic, '```spoiler Who did it?\nThe butler.\n```');
  const bareId = await iago.send('general', topic, '```spoiler\nNo header here.\n```');
  const codeId = await iago.send('general', topic, 'RICH-CODE');
  const mathId = await iago.send('general', topic, 'RICH-MATH');
  await openTopic(app, 'general', topic);
  const list = messageList(app);
  const msg = (id: number) => list.locator(`li.message[data-message-id="${id}"] .message-content`);

  // Spoilers: collapsed, the header (or "Spoiler") and a button; the content is out of sight and of the accessibility tree.
  const spoiler = msg(spoilerId);
  await expect(spoiler).toContainText('Who did it?');
  const show = spoiler.getByRole('button', { name: 'Show spoiler' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(spoiler.getByText('The butler.')).toBeHidden();
  await expect(spoiler.locator('.spoiler-content')).toHaveAttribute('aria-hidden', 'true');
  await expect(msg(bareId).locator('.spoiler-header')).toHaveText(/^Spoiler\s*Show spoiler$/);
  await expect(msg(bareId).getByText('No header here.')).toBeHidden();

  await show.focus();
  await app.keyboard.press('Enter');
  const hide = spoiler.getByRole('button', { name: 'Hide spoiler' });
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await expect(hide).toBeFocused();
  await expect(spoiler.getByText('The butler.')).toBeVisible();
  await expect(spoiler.locator('.spoiler-content')).not.toHaveAttribute('aria-hidden', /.*/);
  await app.keyboard.press('Space');
  await expect(spoiler.getByText('The butler.')).toBeHidden();
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await app.keyboard.press('Enter');
  await expect(spoiler.getByText('The butler.')).toBeVisible();
  // The other spoiler stays shut.
  await expect(msg(bareId).getByText('No header here.')).toBeHidden();

  // Code: Pygments' classes kept and coloured apart from plain names; the language on the block.
  const code = msg(codeId).locator('.codehilite');
  await expect(code).toHaveAttribute('data-code-language', 'Python');
  await expect(code.locator('.k')).toHaveText('def');
  const plain = await colour(code.locator('.n'));
  for (const cls of ['.k', '.nf', '.mi', '.o', '.bp']) expect(await colour(code.locator(cls)), cls).not.toBe(plain);
  expect(await code.evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"Python"');

  // Math as Zulip web shows it: KaTeX's HTML in KaTeX's own fonts (shipped with the app), its
  // layout styles applied through the CSSOM (the CSP refuses style attributes), the MathML kept
  // (visually hidden by KaTeX's stylesheet) for screen readers.
  const math = msg(mathId);
  await expect(math.locator('.katex-mathml > math')).toHaveCount(3);
  await expect(math.locator('annotation')).toHaveCount(3);
  await expect(math.locator('.katex-html')).toHaveCount(3);
  await expect(math.locator('.katex-mathml').first()).toHaveCSS('position', 'absolute');
  await expect(math.locator('.mord.mathnormal').first()).toHaveCSS('font-family', /KaTeX_Math/);
  await expect.poll(() => app.evaluate('document.fonts.ready.then(() => document.fonts.check("1em KaTeX_Math") && document.fonts.check("1em KaTeX_Main"))')).toBe(true);
  // The struts keep their heights (a style the sanitiser carried): without them they would be 0.
  expect((await box(math.locator('.katex-display .strut').first())).height).toBeGreaterThan(5);
  // a²: the exponent above the line of its base, after it.
  const display = math.locator('.katex-display');
  const [base, exponent] = [await box(display.locator('.mord.mathnormal').first()), await box(display.locator('.msupsub .mord.mtight').first())];
  expect(exponent.y + exponent.height).toBeLessThan(base.y + base.height);
  expect(exponent.x).toBeGreaterThanOrEqual(base.x + base.width - 1);
  // ½: the numerator over the fraction line over the denominator.
  const frac = math.locator('.mfrac').last();
  const digit = (d: string) => box(frac.locator('.mord.mtight > .mord.mtight').filter({ hasText: d }));
  const [num, bar, den] = [await digit('1'), await box(frac.locator('.frac-line')), await digit('2')];
  const middle = (b: { y: number; height: number }) => b.y + b.height / 2;
  expect(middle(num)).toBeLessThan(middle(bar));
  expect(middle(den)).toBeGreaterThan(middle(bar));
  // Display math on its own line, centred.
  const line = await box(display);
  const shown = await box(display.locator('.katex-html'));
  expect(Math.abs(shown.x + shown.width / 2 - (line.x + line.width / 2))).toBeLessThan(4);

  await list.locator(`li.message[data-message-id="${spoilerId}"]`).scrollIntoViewIfNeeded();
  await screenshot(app, testInfo, '102-rich-content');
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await colour(code.locator('.k'))).not.toBe(await colour(code.locator('.n')));
  await screenshot(app, testInfo, '102-rich-content-dark');
});

test.describe('in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('a global time shows in the reader’s zone and hour format, the text as written in its title', async ({ app, host }) => {
    const iago = await demoUser(host, 'iago@example.com');
    const id = await iago.send('general', 'meeting times', 'Launch at <time:1496701800>, not <time:whenever>.');
    await openTopic(app, 'general', 'meeting times');
    const content = messageList(app).locator(`li.message[data-message-id="${id}"] .message-content`);
    const time = content.locator('time');
    await expect(time).toHaveAttribute('datetime', '2017-06-05T22:30:00Z');
    // 22:30 UTC is 6:30 PM in New York, in 12- or 24-hour form as the user's setting says.
    await expect(time).toHaveText(/^Mon, Jun 5, 2017, (6:30\sPM|18:30)$/);
    await expect(time).toHaveAttribute('title', 'This time is in your time zone. Original text was “1496701800”.');
    await expect(content).toContainText('Invalid time format: whenever');
  });
});

test('mentions of the reader (by name, @all, @topic) are marked as theirs; of others and silent ones are not', async ({ app, host }) => {
  const iago = await demoUser(host, 'iago@example.com');
  const id = await iago.send('general', 'who is called', '@**Desdemona** and @**King Hamlet**, @*players*, @**all**, @**topic** and quietly @_**Desdemona**.');
  await openTopic(app, 'general', 'who is called');
  const content = messageList(app).locator(`li.message[data-message-id="${id}"] .message-content`);
  await expect(content.locator('.user-mention-me')).toHaveText(['@Desdemona', '@all', '@topic']);
  await expect(content.locator('.user-mention:not(.user-mention-me), .user-group-mention:not(.user-mention-me)')).toHaveText(['@King Hamlet', '@players', 'Desdemona']);
});

test('offline after a reload: spoilers, highlighted code and KaTeX math are still shown from the device', async ({ page }, testInfo) => {
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const iago = await world.rest('iago@example.com');
    for (const content of ['```spoiler Who did it?\nThe butler.\n```', 'RICH-CODE', 'RICH-MATH']) await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'rich offline', content });
    await openTopic(page, 'Verona', 'rich offline');
    const list = messageList(page);
    const check = async () => {
      await expect(list.locator('.katex-html')).toHaveCount(3);
      await expect(list.locator('.mord.mathnormal').first()).toHaveCSS('font-family', /KaTeX_Math/);
      await expect(list.locator('.codehilite .k')).toHaveText('def');
      await expect(list.getByRole('button', { name: 'Show spoiler' })).toBeVisible();
      await expect(list.getByText('The butler.')).toBeHidden();
    };
    await check();
    await world.stopServer();
    await page.reload();
    await check();
    await expect(statusOf(page)).toContainText('Offline');
    await lightAndDark(page, testInfo, '129-rich-content-offline');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
