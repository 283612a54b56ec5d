/**
 * Zulip's own Markdown test cases (test/fixtures/zulip/markdown_test_cases.json) through the
 * reference server's Markdown, compared with the HTML a real Zulip server sends (`expected_output`),
 * normalised for attribute order, entity spelling and whitespace between tags (and line breaks at
 * the ends of a text outside `<pre>`). The cases the reference server cannot render as Zulip does
 * are skipped, each with its reason (`skipReason`); of the rest at least MATCH_FLOOR must match, so
 * a regression fails. The counts are printed (ZULIP_CASES_VERBOSE=1 prints each difference).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../server/markdown/render.js';
import { startTestServer, type TestServer } from './harness.js';

interface ZulipCase {
  readonly name: string;
  readonly input: string;
  readonly expected_output: string;
  readonly translate_emoticons?: boolean;
}

const FILE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/zulip/markdown_test_cases.json'), 'utf8')) as { regular_tests: ZulipCase[] };

/** The realm Zulip's cases were rendered for; the test server's own URL stands in for it. */
const ZULIP_TEST_REALM = 'http://zulip.testserver';

/** Why a case cannot match, by what its expected HTML needs. */
function skipReason(c: ZulipCase): string | null {
  const html = c.expected_output;
  if (html.includes('class="katex') || html.includes('class="tex-error')) return 'KaTeX output: the reference server has no TeX renderer (no KaTeX dependency)';
  if (/<code>(?:[^<]|<(?!\/code>))*<span class="/.test(html)) return "Pygments syntax highlighting: the reference server has no highlighter";
  if (html.includes('/thumbnail?url=')) return "images of other sites through Zulip's /thumbnail proxy: the reference server has no image proxy";
  if (c.translate_emoticons === true) return "translating emoticons is a user setting the reference server does not have";
  if (html.includes('/static/generated/emoji/')) return "Zulip's own :zulip: emoji is a server static file the reference server does not serve";
  return null;
}

/** HTML with attributes sorted, character references decoded (then `&`, `<`, `>` and `"` escaped), whitespace between tags dropped. */
function normaliseHtml(html: string): string {
  const decode = (s: string) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (e[0] !== '#') return named[e.toLowerCase()]!;
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    });
  const text = (s: string) => decode(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // Outside <pre>, a line break at either end of a text is layout only (it shows as nothing there).
  let pre = 0;
  return html
    .split(/(<[^>]+>)/)
    .filter((part) => part.trim() !== '')
    .map((part) => {
      if (!part.startsWith('<')) return text(pre > 0 ? part : part.replace(/^\n+|\n+$/g, ''));
      const m = /^<(\/?[a-zA-Z][\w-]*)([^>]*?)(\/?)>$/.exec(part);
      if (!m) return text(part);
      if (m[1]!.toLowerCase() === 'pre') pre++;
      else if (m[1]!.toLowerCase() === '/pre') pre--;
      const attrs = [...m[2]!.matchAll(/([^\s=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)].map((a) => `${a[1]!.toLowerCase()}="${text(a[2] ?? a[3] ?? a[4] ?? '').replace(/"/g, '&quot;')}"`);
      return `<${m[1]!.toLowerCase()}${attrs.sort().map((a) => ` ${a}`).join('')}>`;
    })
    .join('');
}

/** The number of cases that match today: lower it only with a reason. */
const MATCH_FLOOR = 107;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe("Zulip's Markdown test cases through the reference server", () => {
  it(`renders at least ${MATCH_FLOOR} of them exactly as Zulip does, the others skipped with a reason`, () => {
    const realm = t.server.state.config.realmUrl;
    const skipped: Record<string, string[]> = {};
    const matched: string[] = [];
    const differ: string[] = [];
    for (const c of FILE.regular_tests) {
      const reason = skipReason(c);
      if (reason !== null) {
        (skipped[reason] ??= []).push(c.name);
        continue;
      }
      const html = renderMarkdown(t.server.state, c.input.replaceAll(ZULIP_TEST_REALM, realm), { senderId: t.userId('hamlet') }).html.replaceAll(realm, ZULIP_TEST_REALM);
      if (normaliseHtml(html) === normaliseHtml(c.expected_output)) matched.push(c.name);
      else differ.push(`${c.name}\n  got:  ${normaliseHtml(html)}\n  want: ${normaliseHtml(c.expected_output)}`);
    }
    const skippedCount = Object.values(skipped).reduce((n, l) => n + l.length, 0);
    console.log(`Zulip Markdown cases on the reference server: ${FILE.regular_tests.length} cases, ${matched.length} match, ${differ.length} differ, ${skippedCount} skipped`);
    for (const [reason, names] of Object.entries(skipped)) console.log(`  skipped (${names.length}): ${reason}: ${names.join(', ')}`);
    if (process.env.ZULIP_CASES_VERBOSE) console.log(differ.join('\n'));
    expect(matched.length).toBeGreaterThanOrEqual(MATCH_FLOOR);
  });
});
